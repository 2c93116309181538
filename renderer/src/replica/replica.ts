/**
 * The window's replica: an automerge-repo Repo with no storage whose only peer is the core, run by the replica host
 * (a Web Worker). The core owns disk and the relay; the replica exists so the editor's keystrokes become local
 * Automerge changes at once (text-authority.ts) and the window merges teammates' changes itself.
 * What must stay true: opening a document waits for the core to hand it over (find() reports "unavailable" if the
 * core did not have it when asked; the core normally announces it once it has it, and this also asks again in case
 * that announcement never comes) and gives up only after a bound, with a typed error.
 */
import {
  Repo,
  interpretAsDocumentId,
  type AutomergeUrl,
  type DocHandle,
  type DocumentId,
  type NetworkAdapterInterface,
} from "@automerge/automerge-repo";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { ChopinError } from "../../../shared/errors.js";
import { checkedChangeHashes } from "../../../shared/fast-link/change-hash.js";
import { FastLinkAdapter } from "../../../shared/fast-link/fast-link-adapter.js";
import { OPEN_DOCUMENT_RETRY_MS, OPEN_DOCUMENT_TIMEOUT_MS } from "../limits.js";

/**
 * The replica syncs only documents this window opened itself (find or import made a handle). The core announces
 * every document it holds to its windows, the workspace indexes too, which no window reads; syncing those at
 * startup held the page's main thread for 50-70 ms of first-time Automerge work, right when a first click on a
 * document wanted it. A refused announcement costs one "doc-unavailable" message; opening the document later asks
 * the core afresh.
 */
export function createReplica(inner: NetworkAdapterInterface): Repo {
  // The window fast link: keystrokes reach the core, and the core's changes this window, as change bytes at once
  // (shared/fast-link/); with a core that does not offer it, the replica syncs by the protocol alone.
  // Both this link and the Repo's shareConfig carry only documents this window opened, asked for every batch.
  const opened = (documentId: string) => repo.handles[documentId as DocumentId] !== undefined;
  const adapter = new FastLinkAdapter(inner, { side: "window", hashes: checkedChangeHashes, mayCarry: (_core, documentId) => opened(documentId) });
  const repo: Repo = new Repo({
    network: [adapter],
    shareConfig: {
      // The core is the only peer; it may hear about every document this window opens.
      announce: async () => true,
      access: async (_peer, documentId) => documentId !== undefined && opened(documentId),
    },
  });
  // Before the Repo connects (it does so a microtask later), so the handshake offers the link.
  adapter.attachRepo(repo);
  return repo;
}

/** Resolves with a ready handle for `url`, asking the core again while it does not have the document yet. */
export async function openDocument(
  repo: Repo,
  url: string,
  { timeoutMs = OPEN_DOCUMENT_TIMEOUT_MS, retryMs = OPEN_DOCUMENT_RETRY_MS }: { timeoutMs?: number; retryMs?: number } = {},
): Promise<DocHandle<PlanDocument>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = await repo.find<PlanDocument>(url as AutomergeUrl, { allowableStates: ["ready", "unavailable"] });
    if (handle.isReady()) return handle;
    const left = deadline - Date.now();
    if (left <= 0) break;
    const ready = await Promise.race([
      // Rejects when the handle is deleted below after losing the race: that must not surface as an unhandled rejection.
      handle.whenReady(["ready"]).then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), Math.min(retryMs, left))),
    ]);
    if (ready) return handle;
    if (Date.now() >= deadline) break;
    // Forget the refused request so the next find() asks the core afresh. The replica has no storage and delete()
    // sends nothing to peers, so this only drops the empty local handle (removeFromCache refuses unready handles).
    repo.delete(handle.documentId);
  }
  throw new ChopinError(
    "timeout",
    `This document did not reach the window within ${Math.round(timeoutMs / 1000)} s. Chopin may still be loading it; try opening it again.`,
  );
}

/**
 * Opens a document starting from the core's stored bytes when it gave them: the replica loads them itself (one
 * Automerge load) instead of receiving every change through a sync round (for a 259,778-change document that round
 * took seconds longer than the load). Sync still runs afterwards, so anything newer than the stored state arrives
 * the usual way. Bytes that give no document fall back to asking the core.
 */
export async function openDocumentFrom(
  repo: Repo,
  url: string,
  saved: Uint8Array | null,
  options?: { timeoutMs?: number; retryMs?: number },
): Promise<DocHandle<PlanDocument>> {
  const documentId = interpretAsDocumentId(url as AutomergeUrl);
  const cached = repo.handles[documentId] as DocHandle<PlanDocument> | undefined;
  if (saved && !cached) {
    let handle: DocHandle<PlanDocument> | null = null;
    try {
      handle = repo.import<PlanDocument>(saved, { docId: documentId });
    } catch {
      // Unreadable bytes: the core still has the document.
    }
    if (handle?.isReady()) return handle;
    if (repo.handles[documentId]) repo.delete(documentId);
  }
  return openDocument(repo, url, options);
}
