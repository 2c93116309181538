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
 * What must stay true: a goodbye goes only to peers allowed the document (a private document's id never reaches the
 * relay), and never back to the window it speaks for.
 */
import type { EphemeralMessage, PeerId, Repo } from "@automerge/automerge-repo";
import { PRESENCE_GOODBYE } from "../../shared/presence-goodbye.js";


export class WindowFarewell {
  /** Receivers drop an ephemeral message whose sender session and count they have seen: one session per farewell. */
  #farewells = 0;

  constructor(
    private readonly repo: Repo,
    private readonly windows: () => Iterable<PeerId>,
    private readonly mayShare: (peer: PeerId, documentId: string) => Promise<boolean>,
  ) {}

  /** Sends the goodbyes; call before the document leaves the indexes (mayShare must still know it is shared). */
  async sayFor(documentId: string): Promise<void> {
    const windows = [...this.windows()];
    if (windows.length === 0) return;
    const targets: PeerId[] = [];
    for (const peer of this.repo.peers) if (await this.mayShare(peer, documentId)) targets.push(peer);
    for (const window of windows) {
      const sessionId = `farewell-${++this.#farewells}-${Math.random().toString(36).slice(2)}` as EphemeralMessage["sessionId"];
      for (const targetId of targets) {
        if (targetId === window) continue;
        const goodbye: EphemeralMessage = {
          type: "ephemeral",
          senderId: window,
          targetId,
          documentId: documentId as EphemeralMessage["documentId"],
          data: PRESENCE_GOODBYE,
          count: 1,
          sessionId,
        };
        // Typed for messages of our own; one that carries a count is forwarded unchanged, sender and session kept.
        this.repo.networkSubsystem.send(goodbye as Parameters<Repo["networkSubsystem"]["send"]>[0]);
      }
    }
  }
}
