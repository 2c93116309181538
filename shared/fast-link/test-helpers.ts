/** Helpers for the fast-link tests (shared/fast-link, main/sync/window-link.test.ts). */
import type { DocHandle } from "@automerge/automerge-repo";

/**
 * Resolves with what `count()` was the first time `handle`'s text contains `text`: how many sync messages carrying
 * changes had arrived by then tells whether the fast link or the sync protocol brought it.
 */
export function countWhenSeen(handle: DocHandle<{ text: string }>, text: string, count: () => number): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (!handle.doc().text.includes(text)) return;
      handle.off("change", check);
      resolve(count());
    };
    handle.on("change", check);
  });
}
