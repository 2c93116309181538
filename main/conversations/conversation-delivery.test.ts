/**
 * A message's delivery as a window sees it (issue #25). A window reads the conversation again only when the core says
 * "conversation-changed" (renderer/src/conversation/use-conversation.ts), so the core must say it when the relay's
 * acknowledgement makes a message sent from here delivered: an acknowledgement changes no document. Before, only the
 * sync indicator's "sync-status" said it, and only when something else had the indicator looked at while the message
 * waited, so in ~40% of e2e runs the sender's window kept "Not yet delivered" for good. Each test models the window as
 * exactly that: a read on each event, the latest read shown.
 */
import { generateAutomergeUrl, parseAutomergeUrl, Repo, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import type { Chunk, StorageAdapterInterface, StorageKey } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { describe, expect, it } from "vitest";
import type { ChopinApi, ChopinEvents, ConversationPage, DocumentDetail } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { toHexHeads } from "../documents/heads.js";
import { ConversationRecords } from "../store/conversation-records.js";
import { openLocalDb } from "../store/local-db.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { ConversationService } from "./conversation-service.js";

const { cleanups, dir } = cleanupsAfterEach();

/** What a window shows of one entry: it reads the page again on every "conversation-changed" of the plan. */
function windowOf(events: TypedEmitter<ChopinEvents>, read: () => Promise<ConversationPage>, planId: string, entryId: () => string | undefined) {
  let asked = 0;
  let shown: string | undefined;
  events.on("conversation-changed", ({ documentId }) => {
    if (documentId !== planId) return;
    const mine = ++asked;
    void read().then((page) => {
      if (mine === asked) shown = page.entries.find((entry) => entry.id === entryId())?.delivery;
    });
  });
  return { shown: () => shown, show: (delivery: string) => (shown = delivery) };
}

/** Enough storage for a Repo to have a storage id (the relay's sync info is kept per storage id). */
class MemoryStorage implements StorageAdapterInterface {
  readonly #data = new Map<string, Uint8Array>();
  async load(key: StorageKey): Promise<Uint8Array | undefined> {
    return this.#data.get(key.join("/"));
  }
  async save(key: StorageKey, data: Uint8Array): Promise<void> {
    this.#data.set(key.join("/"), data);
  }
  async remove(key: StorageKey): Promise<void> {
    this.#data.delete(key.join("/"));
  }
  async loadRange(prefix: StorageKey): Promise<Chunk[]> {
    const start = prefix.join("/");
    return [...this.#data].filter(([key]) => key.startsWith(start)).map(([key, data]) => ({ key: key.split("/"), data }));
  }
  async removeRange(prefix: StorageKey): Promise<void> {
    for (const chunk of await this.loadRange(prefix)) this.#data.delete(chunk.key.join("/"));
  }
}

describe("a message sent while connected", () => {
  it("is re-read as delivered once the relay acknowledges it, though the acknowledgement changes no document", async () => {
    const channel = new MessageChannel();
    const relay = new Repo({ peerId: "relay" as PeerId, storage: new MemoryStorage(), network: [new MessageChannelNetworkAdapter(channel.port1 as unknown as MessagePort)] });
    const repo = new Repo({ peerId: "bob" as PeerId, network: [new MessageChannelNetworkAdapter(channel.port2 as unknown as MessagePort)] });
    cleanups.push(async () => {
      await Promise.all([repo.shutdown(), relay.shutdown()]);
      channel.port1.close();
      channel.port2.close();
    });
    // As the relay presented it (asked of the relay itself before its storage settled, it may name another id).
    const relayStorageId = await waitFor(() => repo.getStorageIdOfPeer("relay" as PeerId), "bob knows the relay's storage id");
    const data = dir("chopin-delivery-records-");
    const db = openLocalDb(data);
    cleanups.push(() => void db.close());

    const planId = parseAutomergeUrl(generateAutomergeUrl()).documentId;
    const events = new TypedEmitter<ChopinEvents>();
    const service = new ConversationService({
      repo,
      records: new ConversationRecords(db),
      events,
      plans: { getDocument: async (id) => ({ id, archivedAt: null }) as DocumentDetail, isShared: () => true },
      holds: () => false,
      author: () => ({ kind: "person", name: "Bob", device: "bob" }),
      // As the app core has it (pending-changes.ts relayHeldHeads), without fast-path deliveries.
      relayHeld: (handle) => toHexHeads(handle.getSyncInfo(relayStorageId)?.lastHeads ?? []),
    });

    let sentId: string | undefined;
    const bobsWindow = windowOf(events, () => service.read(planId), planId, () => sentId);
    const sent = await service.post(planId, { text: "Hi Alice", to: "room", clientRequestId: "b-1" });
    sentId = sent.entry.id;
    // The answer is what the window shows first: nothing has reached the relay yet.
    expect(sent.entry.delivery).toBe("pending");
    bobsWindow.show(sent.entry.delivery);

    await waitFor(async () => (await service.read(planId)).entries[0]?.delivery === "delivered", "the relay acknowledged it");
    await waitFor(() => bobsWindow.shown() === "delivered", "the window is told it is delivered");
  });

  it("shows delivered in the sender's window through a real relay, with nothing else happening", async () => {
    const relay = await startRelay({ dataDir: dir("chopin-delivery-relay-") });
    cleanups.push(() => relay.close());
    const core = async (name: string): Promise<AppCore> => {
      const made = await createAppCore({ dataDir: dir(`chopin-delivery-${name}-`), mcpPort: 0, relayUrl: relay.url, relayToken: relay.users.add(name).token, planner: { off: true } });
      cleanups.push(() => made.close());
      return made;
    };
    const alice = await core("alice");
    const bob = await core("bob");
    const plan = await alice.api.createDocument({ title: "Launch", shared: true });
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === plan.id), "bob sees the plan");
    const planId = plan.id as DocumentId;

    let sentId: string | undefined;
    const bobsWindow = windowOf(bob.events, () => bob.api.readConversation(planId), planId, () => sentId);
    const sent = await bob.api.postMessage(planId, { text: "Hi Alice", to: "room", clientRequestId: "b-1" });
    sentId = sent.entry.id;
    bobsWindow.show(sent.entry.delivery);

    const read = (api: ChopinApi) => api.readConversation(planId);
    await waitFor(async () => (await read(alice.api)).entries.some((e) => e.text === "Hi Alice"), "alice has it");
    await waitFor(() => bobsWindow.shown() === "delivered", "bob's window is told his message is delivered");
  });
});
