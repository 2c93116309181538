/**
 * The core Repo's share policy: which peer may sync which document. A window of this device (a renderer peer, reached
 * through a guarded shell) may sync every document; the relay, and members whose presence it forwards, only what this
 * device's own record shares with the relay's team (Indexes.isShared); any other peer nothing.
 *
 * What must stay true: a peer is a renderer peer only from its candidate event to its disconnect; the core announces
 * nothing to a window (a window asks for each document it opens); every answer about the relay goes through `isShared`,
 * the same decision the relay link asks for every frame (relay-client-adapter.ts, mayCarry).
 */
import type { DocumentId, PeerId, Repo } from "@automerge/automerge-repo";

export interface SharePolicyDeps {
  /** Whether `peer` is reached through the relay (the relay link; false while none is configured). */
  isRelayPeer(peer: string): boolean;
  /** This device's share decision for the relay (DocumentService.isShared). */
  isShared(documentId: string): boolean;
}

export class SharePolicy {
  /** This device's windows, while connected. */
  readonly rendererPeers = new Set<string>();
  #deps: SharePolicyDeps | null = null;

  /** Set once the relay link and the document service exist; until then only windows get anything. */
  connect(deps: SharePolicyDeps): void {
    this.#deps = deps;
  }

  /** Whether `peer` may sync `documentId`. */
  mayShare(peer: string, documentId?: string): boolean {
    if (this.rendererPeers.has(peer)) return true;
    const deps = this.#deps;
    return !!deps && documentId !== undefined && deps.isRelayPeer(peer) && deps.isShared(documentId);
  }

  /**
   * Whether the core may offer `documentId` to `peer` unasked. Never to a window: announcing every document to a
   * window that just connected cost both sides a sync round per document at startup.
   */
  mayAnnounce(peer: string, documentId?: string): boolean {
    return !this.rendererPeers.has(peer) && this.mayShare(peer, documentId);
  }

  /** automerge-repo's shareConfig over this policy. */
  get shareConfig(): { announce: (peer: PeerId, doc?: DocumentId) => Promise<boolean>; access: (peer: PeerId, doc?: DocumentId) => Promise<boolean> } {
    return {
      announce: async (peer, documentId) => this.mayAnnounce(peer, documentId),
      access: async (peer, documentId) => this.mayShare(peer, documentId),
    };
  }

  /** Whether a window of this device syncs `documentId` now (one of its synchronizer's peers until the window goes). */
  inWindow(repo: Repo, documentId: string): boolean {
    const synchronizer = repo.synchronizer.docSynchronizers[documentId as DocumentId];
    return [...this.rendererPeers].some((peer) => synchronizer?.hasPeer(peer as PeerId) === true);
  }
}
