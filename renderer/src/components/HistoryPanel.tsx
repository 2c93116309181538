/**
 * The open document's versions (who, when, what), newest first. Picking one shows it read-only in place of the
 * editor. The list itself is read by the document view (use-version-list.ts), which also follows it for the version
 * being viewed.
 */
import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { VersionEntry } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { formatWhen } from "../format-time.js";
import { Icon } from "./Icons.js";
import { versionFacts } from "./use-version-facts.js";

export function HistoryPanel({ documentId, versions, listError }: { documentId: string; versions: VersionEntry[] | null; listError: string | null }) {
  const { bridge, ui } = useServices();
  const viewing = useStore(ui, (s) => s.viewingVersion);
  const [viewError, setViewError] = useState<string | null>(null);
  const error = viewError ?? listError;
  // Opening the panel (its button or Mod+Shift+H) moves the focus to it, so a keyboard or screen reader user lands
  // in what they opened instead of staying in the editor with nothing said. Only then: the panel is mounted again for
  // each plan opened while it is open, and the focus belongs to that plan's title or the list.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusPending = useStore(ui, (s) => s.historyFocusPending);
  useEffect(() => {
    if (!focusPending) return;
    headingRef.current?.focus();
    ui.getState().historyFocused();
  }, [focusPending, ui]);
  // Back from a version (Back to current, Restore, Escape), the focus returns to the version it came from (else the
  // heading): the button that was pressed is gone, and the focus would fall to the page itself. A restore confirmed
  // in a dialog asks for the same place once the dialog is gone (focusViewedVersion).
  const itemRefs = useRef(new Map<string, HTMLButtonElement>());
  const lastViewed = useRef<string | null>(null);
  const focusLastViewed = () => (itemRefs.current.get(lastViewed.current ?? "") ?? headingRef.current)?.focus();
  useEffect(() => {
    if (viewing) {
      lastViewed.current = viewing.content.id;
      return;
    }
    // While a confirmation is open the focus belongs to it; its close asks for this place (focusViewedVersion).
    if (lastViewed.current !== null && focusIsLost() && ui.getState().confirm === null) focusLastViewed();
  }, [viewing]);
  const versionFocusRequests = useStore(ui, (s) => s.versionFocusRequests);
  const seenVersionRequests = useRef(versionFocusRequests);
  useEffect(() => {
    if (versionFocusRequests === seenVersionRequests.current) return;
    seenVersionRequests.current = versionFocusRequests;
    focusLastViewed();
  }, [versionFocusRequests]);

  const view = async (version: VersionEntry) => {
    try {
      // Only the version before it is read here; whether it is the latest, and who wrote after it, follow the list.
      const { previousId } = versionFacts(versions ?? [], version);
      const [content, previous] = await Promise.all([
        bridge.api.readVersion(documentId, version.id),
        previousId ? bridge.api.readVersion(documentId, previousId) : Promise.resolve(null),
      ]);
      ui.getState().viewVersion({ documentId, content, at: version.at, previousId, previousMarkdown: previous?.markdown ?? null });
      setViewError(null);
    } catch (e) {
      setViewError(describeError(e));
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
