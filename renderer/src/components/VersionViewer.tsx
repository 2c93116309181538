/**
 * An older version, read-only, with the way back and the way to restore it (a new change; history keeps all).
 * Restoring takes out what was written after the version: when teammates wrote some of it, the restore asks first
 * and names them; this person's own later changes alone restore at once.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useStore } from "zustand";
import type { VersionContent } from "../../../shared/api.js";
import { createMarkdownViewer } from "../editor/plan-editor.js";
import { changesWords, markChanges, versionChanges } from "../editor/version-changes.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { formatWhen } from "../format-time.js";

export function VersionViewer({
  documentId,
  content,
  at,
  previousMarkdown = null,
  latest = false,
  laterAuthors = [],
  basis = null,
}: {
  documentId: string;
  content: VersionContent;
  at: number;
  /** The version before this one (null for the first): the lines this one added, changed or removed are shown. */
  previousMarkdown?: string | null;
  /** The newest version: what the document holds now, so there is nothing to restore. */
  latest?: boolean;
  /** Who made the versions after this one. */
  laterAuthors?: string[];
  /** The document's heads as the history the person sees ends: the restore is made as of them. */
  basis?: string[] | null;
}) {
  const { bridge, ui, documents, session, editor } = useServices();
  // Leaving the view (Back to current, Escape, a restore) removes the button that had the focus. With the history
  // panel open, the panel hands it on; with it closed, writing goes on in the body instead of the focus being lost.
  useEffect(
    () => () => {
      requestAnimationFrame(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && !ui.getState().historyOpen && !ui.getState().viewingVersion && !ui.getState().confirm) editor.getState().focusBody();
      });
    },
    [ui, editor],
  );
  const me = useStore(session, (s) => s.identity?.displayName ?? null);
  const parentRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const changes = useMemo(() => versionChanges(previousMarkdown, content.markdown), [previousMarkdown, content]);
  const changedWords = changesWords(changes);

  useEffect(() => {
    if (!parentRef.current) return;
    const view = createMarkdownViewer(parentRef.current, content.markdown, "Version content", [markChanges(changes)]);
    return () => view.destroy();
  }, [content, changes]);

  const restoreNow = async () => {
    setBusy(true);
    try {
      await bridge.api.restoreVersion(documentId, content.id, basis ?? undefined);
      ui.getState().viewVersion(null);
      void documents.getState().reloadSelected();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const restore = () => {
    const others = laterAuthors.filter((name) => name !== me);
    if (others.length === 0) return void restoreNow();
    ui.getState().askConfirm({
      title: "Restore this version?",
      message: restoreWords(others),
      confirmLabel: "Restore",
      danger: false,
      onConfirm: restoreNow,
      // The banner and its button are gone by the time the question closes: the focus goes where a restore without
      // the question leaves it, the version's row in the history panel.
      onFocusLost: () => (ui.getState().historyOpen ? ui.getState().focusViewedVersion() : ui.getState().focusDocumentList()),
    });
  };

  return (
    <div className="version-viewer">
      <div className="version-banner" role="note">
        <span>
          Viewing the version from <strong>{formatWhen(at)}</strong>
          {content.title ? <> · “{content.title}”</> : null} — read-only
          {changedWords && <span className="version-changes"> · {changedWords}</span>}
        </span>
        <span className="version-banner-actions">
          <button type="button" className="button" onClick={() => ui.getState().viewVersion(null)}>
            Back to current
          </button>
          {latest ? (
            <span className="version-current">This is the current version</span>
          ) : (
            <button type="button" className="button button-primary" disabled={busy} onClick={restore}>
              Restore this version
            </button>
          )}
        </span>
      </div>
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
      <div className="editor-host is-readonly" ref={parentRef} />
    </div>
  );
}

/** Most people a restore question names; the rest are counted. */
const NAMED_AUTHORS = 3;

/** What the restore question says: whose later changes the restore takes out, and that none of it is lost. */
export function restoreWords(others: readonly string[]): string {
  const named = others.slice(0, NAMED_AUTHORS);
  const rest = others.length - named.length;
  const parts = rest > 0 ? [...named, `${rest} other${rest === 1 ? "" : "s"}`] : named;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `Restoring takes out what was written after this version, including changes by ${list}. Every version stays in the history, so nothing is lost.`;
}
