/**
 * The editor starts from the core's snapshot, which can be newer than what the replica first loads (the core's
 * stored bytes lag its live document by the storage's save delay). Taking the document's body then would read as
 * the snapshot's newest text deleted and typed again, and a caret placed at the snapshot's end would land before it
 * (a teammate's words typed at the end arrived split around them). So the replica waits, bounded, until its
 * document holds the snapshot's heads before it owns the body.
 * What must stay true: this only waits; it never changes the document, and it always settles (true: held; false:
 * the bound passed or the heads could not be read, and the caller goes on as before).
 */
import { next as A } from "@automerge/automerge";
import { decodeHeads, type DocHandle, type UrlHeads } from "@automerge/automerge-repo";

export function whenHoldsHeads(handle: DocHandle<unknown>, heads: readonly string[], timeoutMs: number): Promise<boolean> {
  let hex: string[];
  try {
    hex = decodeHeads([...heads] as UrlHeads);
  } catch {
    return Promise.resolve(false);
  }
  const holds = () => {
    const doc = handle.doc();
    return doc !== undefined && A.hasHeads(doc as A.Doc<unknown>, hex);
  };
  if (hex.length === 0 || holds()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (held: boolean) => {
      clearTimeout(timer);
      handle.off("heads-changed", check);
      resolve(held);
    };
    const check = () => {
      if (holds()) settle(true);
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    handle.on("heads-changed", check);
  });
}
