/**
 * Makes the relay tell each fast session the heads it holds once the session's changes arrived on the change fast
 * path (fast-path.ts). Automerge's sync protocol reads a peer's sync message that carries no changes and shows heads
 * equal to ours as proof that the peer already knows our heads: receiveSyncMessage sets the state's lastSentHeads to
 * them and nothing answers it. That holds while changes travel inside sync messages; on the fast path they do not. A
 * client sends its changes as a "changes" frame, its next paced sync message shows exactly the heads the relay now
 * holds, and the relay stayed silent for good: the client never learnt that the relay has its changes, so its
 * "N changes waiting" (main/sync/pending-changes.ts, from the relay's heads as the client last heard them) never
 * cleared until the next edit.
 *
 * What must stay true:
 * - For a fast session, the relay's sync state never claims heads the relay did not send that session: lastSentHeads
 *   is put back to the heads it really sent, and a sync round goes out at once, which carries the heads (and any
 *   change the session lacks) and nothing else. A session the relay did tell needs nothing, so acknowledgements
 *   never ping-pong: the client's answer to that message is empty (its own state says the heads are known).
 * - What the relay remembers is per session and document, and a session's entries go when it disconnects.
 */
import { next as A } from "@automerge/automerge";
import type { PeerId, Repo } from "@automerge/automerge-repo";

interface SyncStateEvent {
  peerId: PeerId;
  documentId: string;
  syncState: A.SyncState;
}

interface OutboundMessage {
  type: string;
  targetId?: string;
  documentId?: string;
  data?: Uint8Array;
}

export interface FastPathAcksDeps {
  repo: Repo;
  /** Whether the session agreed to the change fast path (only those receive changes out of band). */
  isFastSession(sessionId: string): boolean;
  /** Runs a sync-protocol round with `sessionId` for the document now (shared/sync-pacing.ts syncWithPeerNow). */
  syncNow(sessionId: string, documentId: string): void;
}

export class FastPathAcks {
  /** Per session, per document: the heads of the last sync message the relay really sent it (hex). */
  readonly #told = new Map<string, Map<string, string[]>>();
  readonly #deps: FastPathAcksDeps;
  /** Acknowledgement rounds started because a received message made the state claim untold heads (tests read it). */
  acks = 0;

  constructor(deps: FastPathAcksDeps) {
    this.#deps = deps;
    const { synchronizer, networkSubsystem } = deps.repo;
    synchronizer.on("message", (message) => this.#noteSent(message as OutboundMessage));
    synchronizer.on("sync-state", (event) => this.#noteState(event as unknown as SyncStateEvent));
    networkSubsystem.on("peer-disconnected", ({ peerId }) => this.#told.delete(peerId));
  }

  #noteSent(message: OutboundMessage): void {
    if ((message.type !== "sync" && message.type !== "request") || !message.targetId || !message.documentId || !message.data) return;
    if (!this.#deps.isFastSession(message.targetId)) return;
    let heads: string[];
    try {
      heads = A.decodeSyncMessage(message.data).heads;
    } catch {
      return;
    }
    let documents = this.#told.get(message.targetId);
    if (!documents) this.#told.set(message.targetId, (documents = new Map()));
    documents.set(message.documentId, heads);
  }

  /**
   * Checked after the current task: a state set while generating a message is followed at once by that message
   * (#noteSent), so only a state that a received message moved past what was sent is still out of step by then.
   */
  #noteState({ peerId, documentId, syncState }: SyncStateEvent): void {
    if (!this.#deps.isFastSession(peerId)) return;
    queueMicrotask(() => {
      const told = this.#told.get(peerId)?.get(documentId) ?? [];
      if (sameSet(syncState.lastSentHeads, told)) return;
      // The synchronizer keeps this very object as its state for the session, so the next round reads it.
      syncState.lastSentHeads = told;
      this.acks++;
      this.#deps.syncNow(peerId, documentId);
    });
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((head) => b.includes(head));
}
