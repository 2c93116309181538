/**
 * The document metadata this window's typing must keep true, written as small Automerge changes after local edits:
 * - `authors[actor] = display name`, because version history names who made a change from that map and the core
 *   cannot know this replica's actor id;
 * - `updatedAt`, because the document list sorts and shows "edited …" from it; bumped at most once per
 *   UPDATED_AT_GRANULARITY_MS so typing does not double the number of changes.
 * Nothing is written for opening a document or for remote edits.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle } from "@automerge/automerge-repo";
import { isReconcileTx } from "@automerge/automerge-codemirror/dist/plugin.js";
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { MAX_DISPLAY_NAME_CHARS, UPDATED_AT_GRANULARITY_MS } from "../../../shared/limits.js";

export function recordEditMetadata(
  handle: DocHandle<PlanDocument>,
  displayName: () => string | null,
  now: () => number = Date.now,
): Extension {
  let queued = false;
  return EditorView.updateListener.of((update) => {
    if (!update.docChanged || update.transactions.every((tr) => isReconcileTx(tr) || tr.changes.empty)) return;
    if (queued) return;
    queued = true;
    // Runs after the sync plugin has turned this update into an Automerge change, outside CodeMirror's update.
    queueMicrotask(() => {
      queued = false;
      if (!handle.isReady()) return;
      const doc = handle.doc();
      const actor = A.getActorId(doc);
      const name = displayName()?.slice(0, MAX_DISPLAY_NAME_CHARS) || null;
      const nameStale = name !== null && doc.authors?.[actor] !== name;
      const at = now();
      const timeStale = typeof doc.updatedAt !== "number" || at - doc.updatedAt >= UPDATED_AT_GRANULARITY_MS;
      if (!nameStale && !timeStale) return;
      handle.change((d) => {
        if (nameStale) {
          if (!d.authors) d.authors = {};
          d.authors[actor] = name!;
        }
        if (timeStale) d.updatedAt = at;
      });
    });
  });
}
