/**
 * Which documents each connected peer has sent sync or request messages for. The relay announces a document to a
 * peer only when this says so: announcing more (e.g. `sharePolicy: async () => false` plus stale per-peer sync state)
 * lets a reconnecting client loop forever without converging (automerge.md gotcha 1). Recorded from inbound messages,
 * never from access(), which automerge-repo also consults when deciding what to share.
 */
export class PeerInterest {
  readonly #docsByPeer = new Map<string, Set<string>>();

  record(peerId: string, documentId: string): void {
    let docs = this.#docsByPeer.get(peerId);
    if (!docs) this.#docsByPeer.set(peerId, (docs = new Set()));
    docs.add(documentId);
  }

  has(peerId: string, documentId: string | undefined): boolean {
    return documentId !== undefined && (this.#docsByPeer.get(peerId)?.has(documentId) ?? false);
  }

  /** A new connection starts from nothing: the client re-sends sync messages for what it holds. */
  forget(peerId: string): void {
    this.#docsByPeer.delete(peerId);
  }
}
