/**
 * The open document's versions (who, when, what), newest first. Picking one shows it read-only in place of the
 * editor; the list is re-read when the core says the document changed.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { VersionEntry } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { formatWhen } from "../format-time.js";
import { Icon } from "./Icons.js";

const REFRESH_DEBOUNCE_MS = 1000;

export function HistoryPanel({ documentId }: { documentId: string }) {
  const { bridge, ui } = useServices();
  const viewing = useStore(ui, (s) => s.viewingVersion);
  const [versions, setVersions] = useState<VersionEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Opening the panel (its button or Mod+Shift+H) moves the focus to it, so a keyboard or screen reader user lands
  // in what they opened instead of staying in the editor with nothing said.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // Back from a version (Back to current, Restore, Escape), the focus returns to the version it came from (else the
  // heading): the button that was pressed is gone, and the focus would fall to the page itself.
  const itemRefs = useRef(new Map<string, HTMLButtonElement>());
  const lastViewed = useRef<string | null>(null);
  useEffect(() => {
    if (viewing) {
      lastViewed.current = viewing.content.id;
      return;
    }
    const id = lastViewed.current;
    lastViewed.current = null;
    if (id === null || !focusIsLost()) return;
    (itemRefs.current.get(id) ?? headingRef.current)?.focus();
  }, [viewing]);

  const load = useCallback(async () => {
    try {
      setVersions(await bridge.api.listVersions(documentId));
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
  }, [bridge, documentId]);

  useEffect(() => {
    setVersions(null);
    void load();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = bridge.on("documents-changed", ({ ids }) => {
      if (!ids.includes(documentId) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, REFRESH_DEBOUNCE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [bridge, documentId, load]);

  const view = async (version: VersionEntry) => {
    try {
      const list = versions ?? [];
      const index = list.findIndex((v) => v.id === version.id);
      const before = index >= 0 ? list[index + 1] : undefined;
      const [content, previous] = await Promise.all([
        bridge.api.readVersion(documentId, version.id),
        before ? bridge.api.readVersion(documentId, before.id) : Promise.resolve(null),
      ]);
      const laterAuthors = [...new Set(list.slice(0, Math.max(index, 0)).flatMap((v) => v.authors))];
      ui.getState().viewVersion({ documentId, content, at: version.at, previousMarkdown: previous?.markdown ?? null, latest: index === 0, laterAuthors });
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <section className="side-panel history" aria-label="Version history">
      <div className="panel-heading-row">
        <h2 className="panel-heading" ref={headingRef} tabIndex={-1}>
          Version history
        </h2>
        <button type="button" className="icon-button" aria-label="Close version history"
          onClick={() => {
            ui.getState().toggleHistory(false);
            // To the button that opens it again, as a closed dialog returns the focus to its opener.
            document.querySelector<HTMLElement>(".doc-header [aria-label='Version history']")?.focus();
          }}
        >
          <Icon name="close" />
        </button>
      </div>
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
      {versions === null && !error && <p className="panel-empty">Loading…</p>}
      {versions?.length === 0 && <p className="panel-empty">No versions yet.</p>}
      {versions && versions.length > 0 && (
        <ol className="version-list">
          {versions.map((version, index) => {
            const who = version.authors.length ? version.authors.join(", ") : "Unknown";
            const current = viewing?.content.id === version.id;
            return (
              <li key={version.id}>
                <button
                  ref={(node) => {
                    if (node) itemRefs.current.set(version.id, node);
                    else itemRefs.current.delete(version.id);
                  }}
                  type="button"
                  className={`version-item${current ? " is-current" : ""}`}
                  aria-current={current ? "true" : undefined}
                  onClick={() => void view(version)}
                >
                  <span className="version-top">
                    <span className="version-who">{who}</span>
                    <time className="version-when" dateTime={new Date(version.at).toISOString()}>
                      {formatWhen(version.at)}
                    </time>
                  </span>
                  <span className="version-summary">
                    {index === 0 ? "Latest · " : ""}
                    {version.summary}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** The focus is on nothing a person chose: the page itself (the element that had it was removed). */
function focusIsLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}
