/**
 * When a write is on disk. automerge-repo saves on a timer, so whoever reports a write as done to someone outside
 * this process (the renderer's "Saved", an MCP agent, a replay record) first awaits one of these: a crash before the
 * timer fires would otherwise lose a write already confirmed. What must stay true: waitSaved resolves only once the
 * core's own replica holds the heads AND they are flushed, and gives up with 'timeout' rather than waiting forever.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import type { SaveReceipt } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { toHexHeads } from "./heads.js";
import type { PlanAccess } from "./plan-access.js";

/** Writes the document and both indexes to storage now. */
export async function persistDocument(access: PlanAccess, id: string): Promise<void> {
  await access.repo.flush([id as DocumentId, ...access.indexes.documentIds()]);
}

/** Resolves once the core's handle holds `heads` and they are flushed to storage. */
export async function waitSaved(access: PlanAccess, id: string, heads: string[], timeoutMs: number): Promise<SaveReceipt> {
  const wanted = toHexHeads(heads);
  const handle = await access.find(id);
  if (!A.hasHeads(handle.doc(), wanted)) {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!A.hasHeads(handle.doc(), wanted)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new ChopinError("timeout", "The app has not received those changes yet.", { documentId: id }));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        handle.off("heads-changed", check);
      };
      handle.on("heads-changed", check);
      check();
    });
  }
  await access.repo.flush([handle.documentId]);
  return { documentId: handle.documentId, savedAt: access.now() };
}
