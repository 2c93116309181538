import { afterEach, describe, expect, it } from "vitest";
import type { MessageEndpoint } from "../replica-link/port-link.js";
import type { HostToPage } from "./host-protocol.js";
import { runReplicaWorker } from "./replica-worker-host.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { outboxEntries } from "../replica-link/start-replica.js";
import { OutboxStore } from "./outbox-store.js";
import { waitFor } from "../../../shared/wait-for.js";

/** A worker's global scope as the host sees it: what it posts is recorded, and the test plays the page's messages. */
function fakeScope() {
  const posted: HostToPage[] = [];
  const listeners = new Set<(event: MessageEvent) => void>();
  const scope: MessageEndpoint = {
    postMessage: (message) => void posted.push(message as HostToPage),
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
  };
  return { scope, posted, deliver: (data: unknown) => listeners.forEach((l) => l({ data } as MessageEvent)) };
}
const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

describe("the replica worker's host", () => {
  it("starts the host from an init that came while it loaded, and hands it the messages after, in order", async () => {
    const { scope, posted, deliver } = fakeScope();
    const nobody = new MessageChannel();
    stops.push(() => {
      nobody.port1.close();
      nobody.port2.close();
    });
    // One kept entry in the page's storage: the host's outbox replay asks the core about its document at once.
    const storage = new MemoryStorage();
    new OutboxStore(storage).put({ documentId: "2j9knpCseyhnK8izDmLpGP5WMdZQ", windowId: "old", title: "Kept", heads: [], changes: [], writtenAt: Date.now() });
    const init = { t: "init", network: { kind: "port", port: nobody.port1 }, windowId: "w", storage: outboxEntries(storage), coreLink: null };
    runReplicaWorker(scope, [init]);
    await waitFor(() => posted.some((m) => m.t === "api" && m.method === "getDocument"), "the replay's question to the core", 10_000);
    const call = posted.find((m) => m.t === "api") as Extract<HostToPage, { t: "api" }>;
    // The answer (a message after init) reaches the host: the entry's document is gone, so it is dropped in words.
    deliver({ t: "api-result", id: call.id, ok: false, code: "not-found", message: "No such document." });
    await waitFor(() => posted.some((m) => m.t === "storage-remove"), "the entry dropped", 10_000);
    expect(posted.some((m) => m.t === "notice")).toBe(true);
  });

  it("starts nothing until it has an init, and ignores a second one", () => {
    const { scope, posted, deliver } = fakeScope();
    runReplicaWorker(scope, [{ t: "open", session: 1 }]);
    deliver({ t: "api-result", id: 1, ok: true, value: null });
    expect(posted).toEqual([]);
  });
});
