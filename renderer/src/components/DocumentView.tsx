/**
 * The open document: title, who is here, panel toggles, then the editor (or an older version, read-only) with the
 * outline and version history beside it. Waits for the replica to have the document before binding the editor.
 */
import { useEffect, useState } from "react";
import type { DocHandle } from "@automerge/automerge-repo";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { openDocument } from "../replica/replica.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { EditorHost } from "./EditorHost.js";
import { HistoryPanel } from "./HistoryPanel.js";
import { Icon } from "./Icons.js";
import { OutlinePanel } from "./OutlinePanel.js";
import { PresenceAvatars } from "./PresenceAvatars.js";
import { TitleField } from "./TitleField.js";
import { VersionViewer } from "./VersionViewer.js";

function useDocHandle(url: string) {
  const { repo } = useServices();
  const [state, setState] = useState<{ url: string; handle?: DocHandle<PlanDocument>; error?: string }>({ url });
  useEffect(() => {
    let cancelled = false;
    setState({ url });
    openDocument(repo, url).then(
      (handle) => !cancelled && setState({ url, handle }),
      (error) => !cancelled && setState({ url, error: describeError(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [repo, url]);
  return state.url === url ? state : { url };
}

export function DocumentView({ doc }: { doc: DocumentDetail }) {
  const { ui, documents } = useServices();
  const { handle, error } = useDocHandle(doc.url);
  const outlineOpen = useStore(ui, (s) => s.outlineOpen);
  const historyOpen = useStore(ui, (s) => s.historyOpen);
  const viewing = useStore(ui, (s) => (s.viewingVersion?.documentId === doc.id ? s.viewingVersion : null));

  useEffect(() => {
    // A version view belongs to the document it came from.
    const current = ui.getState().viewingVersion;
    if (current && current.documentId !== doc.id) ui.getState().viewVersion(null);
  }, [doc.id, ui]);

  return (
    <div className="document">
      <header className="doc-header">
        <TitleField doc={doc} />
        <div className="doc-header-tools">
          <PresenceAvatars />
          <span className={`doc-badge ${doc.shared ? "is-shared" : "is-private"}`} title={doc.shared ? "Synced with your team's relay" : "Only on this device"}>
            <Icon name={doc.shared ? "people" : "lock"} size={12} />
            {doc.shared ? "Shared" : "Private"}
          </span>
          {!doc.shared && doc.archivedAt === null && (
            <button type="button" className="button button-small" onClick={() => void documents.getState().share(doc.id)}>
              <Icon name="share" />
              Share
            </button>
          )}
          <button
            type="button"
            className={`icon-button${outlineOpen ? " is-active" : ""}`}
            aria-label="Outline"
            aria-pressed={outlineOpen}
            title="Outline"
            onClick={() => ui.getState().toggleOutline()}
          >
            <Icon name="list" />
          </button>
          <button
            type="button"
            className={`icon-button${historyOpen ? " is-active" : ""}`}
            aria-label="Version history"
            aria-pressed={historyOpen}
            title="Version history (Ctrl+Shift+H)"
            onClick={() => ui.getState().toggleHistory()}
          >
            <Icon name="clock" />
          </button>
        </div>
      </header>
      {doc.archivedAt !== null && (
        <div className="archived-banner" role="note">
          This document is archived.
          <button type="button" className="button button-small" onClick={() => void documents.getState().restore(doc.id)}>
            Restore
          </button>
        </div>
      )}
      <div className="doc-body">
        <div className="doc-main">
          {viewing && <VersionViewer documentId={doc.id} content={viewing.content} at={viewing.at} />}
          {/* The editor stays mounted while a version is viewed, so presence and the save state carry on. */}
          <div className="doc-editor" hidden={viewing !== null}>
            {error ? (
              <p className="doc-error" role="alert">
                {error}
              </p>
            ) : handle ? (
              <EditorHost key={doc.id} documentId={doc.id} handle={handle} />
            ) : (
              <p className="doc-loading">Opening…</p>
            )}
          </div>
        </div>
        {(outlineOpen || historyOpen) && (
          <aside className="doc-side">
            {historyOpen && <HistoryPanel documentId={doc.id} />}
            {outlineOpen && <OutlinePanel />}
          </aside>
        )}
      </div>
    </div>
  );
}
