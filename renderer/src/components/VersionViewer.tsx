/** An older version, read-only, with the way back and the way to restore it (a new change; history keeps all). */
import { useEffect, useMemo, useRef, useState } from "react";
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
}: {
  documentId: string;
  content: VersionContent;
  at: number;
  /** The version before this one (null for the first): the lines this one added, changed or removed are shown. */
  previousMarkdown?: string | null;
  /** The newest version: what the document holds now, so there is nothing to restore. */
  latest?: boolean;
}) {
  const { bridge, ui, documents } = useServices();
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

  const restore = async () => {
    setBusy(true);
    try {
      await bridge.api.restoreVersion(documentId, content.id);
      ui.getState().viewVersion(null);
      void documents.getState().reloadSelected();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
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
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void restore()}>
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
