/**
 * The open document: title, who is here, panel toggles, then the editor (or an older version, read-only) with the
 * outline and version history beside it. Shows the core's text snapshot read-only while the replica loads the
 * document (use-open-document.ts), and binds the editor once the replica has it. A teammate's chat with an agent
 * (`teammatesChat`, issue #27) is shown read-only, title, body and conversation, as an archived plan is.
 */
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { formatWhen } from "../format-time.js";
import { ConversationPanel } from "../conversation/ConversationPanel.js";
import { EditorHost } from "./EditorHost.js";
import { useOpenDocument } from "./use-open-document.js";
import { HistoryPanel } from "./HistoryPanel.js";
import { Icon } from "./Icons.js";
import { OutlinePanel } from "./OutlinePanel.js";
import { PresenceAvatars } from "./PresenceAvatars.js";
import { RepositoryControl } from "./RepositoryControl.js";
import { TitleField } from "./TitleField.js";
import { VersionViewer } from "./VersionViewer.js";
import { NO_RELAY_REASON, useRelayConfigured } from "./use-relay-configured.js";
import { useShareAction } from "./use-share-action.js";
import { useVersionFacts } from "./use-version-facts.js";
import { useVersionList } from "./use-version-list.js";
import { shortcutHint } from "./shortcuts.js";

/** Why a teammate's chat with an agent is read-only here (its plan and its conversation alike). */
export const TEAMMATES_CHAT = "This is a teammate’s chat with an agent: you can read it, and only they write in it or change its plan.";

export function DocumentView({ doc }: { doc: DocumentDetail }) {
  const { ui, documents, editor } = useServices();
  // The button goes with the banner once restored: the focus moves on into the body, where writing goes on.
  const restoreAndWrite = async (id: DocumentDetail["id"]) => {
    await documents.getState().restore(id);
    const now = documents.getState().selected;
    if (now?.id === id && now.archivedAt === null) editor.getState().focusBody(id);
  };
  const { snapshot, saved } = useOpenDocument(doc.id);
  // The replica host could not open the document (a sentence), for the document it was about.
  const [failure, setFailure] = useState<{ id: string; message: string } | null>(null);
  const error = failure?.id === doc.id ? failure.message : null;
  // Until the core has described the document, its repository binding is unknown: no control rather than a wrong one.
  const preview = useStore(documents, (s) => s.selectedIsPreview && s.selected?.id === doc.id);
  const outlineOpen = useStore(ui, (s) => s.outlineOpen);
  const historyOpen = useStore(ui, (s) => s.historyOpen);
  const conversationOpen = useStore(ui, (s) => s.conversationOpen);
  const viewing = useStore(ui, (s) => (s.viewingVersion?.documentId === doc.id ? s.viewingVersion : null));
  // Read while the panel shows it or a version is viewed: the viewed version's facts follow it (use-version-facts.ts).
  const { versions, error: versionsError } = useVersionList(doc.id, historyOpen || viewing !== null);
  const facts = useVersionFacts(viewing, versions);
  const relayConfigured = useRelayConfigured();
  const share = useShareAction();

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
          {!preview && <RepositoryControl doc={doc} />}
          <span className={`doc-badge ${doc.shared ? "is-shared" : "is-private"}`} title={!doc.shared ? "Only on this device" : relayConfigured ? "Synced with your team's relay" : "Shared with a team, but no team relay is set up now, so it is not syncing"}>
            <Icon name={doc.shared ? "people" : "lock"} size={12} />
            {doc.shared ? "Shared" : "Private"}
          </span>
          {!doc.shared && doc.archivedAt === null && (
            // aria-disabled, not disabled: the button stays focusable, so a keyboard or screen reader user hears why.
            <button
              type="button"
              className="button button-small"
              aria-disabled={relayConfigured ? undefined : true}
              title={relayConfigured ? "Share with your team's relay" : NO_RELAY_REASON}
              onClick={() => {
                if (relayConfigured) share(doc);
              }}
            >
              <Icon name="share" />
              Share
            </button>
          )}
          <button
            type="button"
            className={`icon-button${conversationOpen ? " is-active" : ""}`}
            aria-label="Conversation"
            aria-pressed={conversationOpen}
            title="Conversation"
            onClick={() => ui.getState().toggleConversation()}
          >
            <Icon name="chat" />
          </button>
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
            title={`Version history (${shortcutHint("Shift+H")})`}
            onClick={() => ui.getState().toggleHistory()}
          >
            <Icon name="clock" />
          </button>
        </div>
      </header>
      {doc.leftTeamAt !== undefined && !doc.shared && (
        // Arrives while the plan may be open (a teammate's delete): a status, so it is heard as well as seen.
        // It says the steps that work now: a teammate's delete archives the plan here too, and an archived plan
        // cannot be shared until it is restored (the banner below offers Restore; then the header offers Share).
        <div className="archived-banner" role="status">
          A teammate deleted this plan from the team’s list ({formatWhen(doc.leftTeamAt)}), and the relay no longer
          keeps it for anyone. Your copy stays on this device, private
          {doc.archivedAt !== null
            ? " and archived: restore it, then share it again to put a copy on the team’s list."
            : "; share it again to put a copy on the team’s list."}
        </div>
      )}
      {doc.listedByTeammate === true && !doc.shared && (
        // A teammate's entry for a plan kept private here is never acted on: the person hears of it and decides.
        <div className="archived-banner" role="status">
          A teammate put this plan on the team’s list, but it is private on this device, so nothing of it was sent.
          Share it if the team should have it.
        </div>
      )}
      {doc.teammatesChat === true && (
        // A teammate's chat with an agent (issue #27): read here, written only by its person; the core refuses the rest.
        <div className="archived-banner" role="status">
          {TEAMMATES_CHAT}
        </div>
      )}
      {doc.archivedAt !== null && (
        // A status, so a person whose plan a teammate archives while it is open hears why typing stopped.
        <div className="archived-banner" role="status">
          This document is archived, so it can’t be edited. Restore it to edit.
          <button type="button" className="button button-small" onClick={() => void restoreAndWrite(doc.id)}>
            Restore
          </button>
        </div>
      )}
      <div className="doc-body">
        <div className="doc-main">
          {viewing && (
            <VersionViewer
              documentId={doc.id}
              content={viewing.content}
              at={viewing.at}
              previousMarkdown={viewing.previousMarkdown ?? null}
              latest={facts?.latest ?? false}
              laterAuthors={facts?.laterAuthors ?? []}
              basis={facts?.basis ?? null}
            />
          )}
          {/* The editor stays mounted while a version is viewed, so presence and the save state carry on. */}
          <div className="doc-editor" hidden={viewing !== null}>
            {error ? (
              <p className="doc-error" role="alert">
                {error}
              </p>
            ) : doc.arriving ? (
              // A teammate's plan whose content has not reached this device yet: the core waits for it (bounded); no
              // editor meanwhile, since nothing typed could land in a plan that is not here.
              <p className="doc-loading">Arriving from the team…</p>
            ) : snapshot !== undefined && saved ? (
              <EditorHost
                key={doc.id}
                documentId={doc.id}
                url={doc.url}
                snapshotText={snapshot?.markdown ?? null}
                snapshotHeads={snapshot?.heads ?? null}
                saved={saved}
                readOnly={doc.archivedAt !== null || doc.teammatesChat === true}
                onFailed={(message) => setFailure({ id: doc.id, message })}
              />
            ) : (
              <p className="doc-loading">Opening…</p>
            )}
          </div>
        </div>
        {(outlineOpen || historyOpen || conversationOpen) && (
          <aside className={`doc-side${conversationOpen ? " has-conversation" : ""}`}>
            {conversationOpen && !preview && <ConversationPanel documentId={doc.id} archived={doc.archivedAt !== null} shared={doc.shared} readOnly={doc.teammatesChat ? TEAMMATES_CHAT : undefined} />}
            {historyOpen && <HistoryPanel documentId={doc.id} versions={versions} listError={versionsError} />}
            {outlineOpen && <OutlinePanel />}
          </aside>
        )}
      </div>
    </div>
  );
}
