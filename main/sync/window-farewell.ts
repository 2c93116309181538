/**
 * Says goodbye, for this device's windows, on a document the core is about to delete. A window leaves a document's
 * presence with a Presence "goodbye" when it closes the editor, but deleting the document closes the editor only after
 * the core has dropped the document, and the core then forwards nothing for it: teammates kept seeing the person
 * "here" until the heartbeat expired (PRESENCE_PEER_TTL_MS; found by e2e/presence.spec.ts). So just before a delete
 * the core sends a goodbye in each connected window's name to every peer that syncs the document (the relay when it
 * is shared, the device's other windows). Every window, not only those known to show the document: a window whose
 * presence the core did not see (it reconnected since) must not linger, and a goodbye from a window a peer does not
 * know costs that peer one re-announcement of its own presence.
 *
 * A window whose link goes (its tab closed, its window shut) is said goodbye for too, on each document it showed
 * presence on: the page says it itself on "pagehide", but a page torn down fast (a loaded machine, a crash) may never
 * get the message out, and teammates then saw it "here" until the heartbeat TTL (found by e2e/presence.spec.ts in CI).
 *
 * What must stay true: a goodbye goes only to peers allowed the document (a private document's id never reaches the
 * relay), and never back to the window it speaks for.
 */
import type { PeerId, Repo } from "@automerge/automerge-repo";
import { presenceGoodbye } from "../../shared/presence-goodbye.js";
import { MAX_WINDOW_PRESENCE_DOCUMENTS } from "../util/limits.js";

export class WindowFarewell {
  /** Receivers drop an ephemeral message whose sender session and count they have seen: one session per farewell. */
  #farewells = 0;
  /** Per connected window: the documents it showed presence on, least recently first (MAX_WINDOW_PRESENCE_DOCUMENTS). */
  readonly #shownOn = new Map<PeerId, Set<string>>();

  constructor(
    private readonly repo: Repo,
    private readonly windows: () => Iterable<PeerId>,
    private readonly mayShare: (peer: PeerId, documentId: string) => Promise<boolean>,
  ) {}

  /** Sends the goodbyes; call before the document leaves the indexes (mayShare must still know it is shared). */
  async sayFor(documentId: string): Promise<void> {
    const windows = [...this.windows()];
    if (windows.length === 0) return;
    const targets = await this.#targets(documentId);
    for (const window of windows) this.#send(window, documentId, targets);
  }

  /** A window's own presence message passed through the core: remember the document, for windowLeft. */
  noteWindowPresence(window: PeerId, documentId: string): void {
    const documents = this.#shownOn.get(window) ?? new Set<string>();
    documents.delete(documentId);
    documents.add(documentId);
    if (documents.size > MAX_WINDOW_PRESENCE_DOCUMENTS) documents.delete(documents.values().next().value!);
    this.#shownOn.set(window, documents);
  }

  /** The window's link went: goodbye in its name on every document it showed presence on. */
  async windowLeft(window: PeerId): Promise<void> {
    const documents = this.#shownOn.get(window);
    this.#shownOn.delete(window);
    for (const documentId of documents ?? []) this.#send(window, documentId, await this.#targets(documentId));
  }

  async #targets(documentId: string): Promise<PeerId[]> {
    const targets: PeerId[] = [];
    for (const peer of this.repo.peers) if (await this.mayShare(peer, documentId)) targets.push(peer);
    return targets;
  }

  #send(window: PeerId, documentId: string, targets: readonly PeerId[]): void {
    const sessionId = `farewell-${++this.#farewells}-${Math.random().toString(36).slice(2)}`;
    for (const targetId of targets) {
      if (targetId === window) continue;
      const goodbye = presenceGoodbye({ senderId: window, targetId, documentId, sessionId });
      // Typed for messages of our own; one that carries a count is forwarded unchanged, sender and session kept.
      this.repo.networkSubsystem.send(goodbye as Parameters<Repo["networkSubsystem"]["send"]>[0]);
    }
  }
}
