import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { Repo, decodeHeads, type DocHandle, type UrlHeads } from "@automerge/automerge-repo";
import { ChangeSet } from "@codemirror/state";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { ChopinError } from "../../../shared/errors.js";
import { linkedRepos } from "../test/linked-repos.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { startInProcessReplica } from "../replica-link/in-process-replica.js";
import type { ReplicaApi, SessionEvent } from "../replica-link/replica-client.js";
import type { AuthorityToMirror } from "../mirror/protocol.js";
import { bytesToBase64 } from "./base64.js";
import { OutboxKeeper } from "./outbox-keeper.js";
import { OUTBOX_KEY_PREFIX, OutboxStore } from "./outbox-store.js";
import { waitFor } from "../../../shared/wait-for.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The core's side as the page's bridge gives it: saved bytes, and waitSaved once the core holds the heads. */
function coreApi(core: Repo, options: { down?: () => boolean } = {}): ReplicaApi {
  const find = (id: string) => {
    if (options.down?.()) throw new ChopinError("core-unavailable", "Chopin's core cannot be reached.");
    const handle = core.handles[id as never] as DocHandle<PlanDocument> | undefined;
    if (!handle) throw new ChopinError("not-found", "No document with that id is on this device.");
    return handle;
  };
  return {
    getDocument: async (id) => (find(id), {} as never),
    readSavedDocument: async (id) => bytesToBase64(A.save(find(id).doc())),
    waitSaved: async (id, heads) => {
      const handle = find(id);
      // Hex hashes or UrlHeads, as the core takes them (main/documents/heads.ts).
      const hex = heads.map((head) => (/^[0-9a-f]{64}$/.test(head) ? head : decodeHeads([head] as UrlHeads)[0]));
      await waitFor(() => A.hasHeads(handle.doc(), hex), "the core to hold the heads", 5_000);
      return { documentId: id, savedAt: 1 };
    },
  };
}
const sameUrlHeads = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();

function setup(text = "hello", storage: MemoryStorage | null = null, api?: (core: Repo) => ReplicaApi, announce = true) {
  const { core, replica, close } = linkedRepos({ announce });
  const plan = core.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title: "Plan", text, authors: {} } as unknown as PlanDocument);
  const notices: string[] = [];
  const host = startInProcessReplica({ repo: replica, api: (api ?? coreApi)(core), storage: storage as unknown as Storage, notify: (m) => notices.push(m), openTimeoutMs: 1_000 });
  cleanups.push(() => {
    host.stop();
    close();
  });
  return { core, replica, plan, client: host.client, notices };
}

function record(link: { on(l: (e: SessionEvent) => void): () => void; mirror: { listen(l: (m: AuthorityToMirror) => void): () => void } }) {
  const events: SessionEvent[] = [];
  const mirror: AuthorityToMirror[] = [];
  link.on((e) => events.push(e));
  link.mirror.listen((m) => mirror.push(m));
  return { events, mirror };
}

describe("the replica host", () => {
  it("opens a document from the core's stored bytes, reports it ready, and writes the editor's pushes to it", async () => {
    const { plan, client } = setup("hello");
    const link = client.open(plan.url, "hello", bytesToBase64(A.save(plan.doc())));
    const seen = record(link);
    link.mirror.post({ type: "push", version: 0, updates: [{ clientID: "ed", changes: ChangeSet.of({ from: 5, insert: "!" }, 5).toJSON() }] });
    await waitFor(() => seen.events.some((e) => e.t === "ready"), "ready", 10_000);
    await waitFor(() => plan.doc().text === "hello!", "the push at the core", 10_000);
    expect(seen.mirror.map((m) => m.type)).toEqual(["updates", "pushed"]);
    // That push waited for the load, so "ready" named heads with it; a later one is reported as new heads.
    const ready = seen.events.find((e) => e.t === "ready") as Extract<SessionEvent, { t: "ready" }>;
    expect(sameUrlHeads(ready.heads, plan.heads())).toBe(true);
    link.mirror.post({ type: "push", version: 1, updates: [{ clientID: "ed", changes: ChangeSet.of({ from: 6, insert: "?" }, 6).toJSON() }] });
    await waitFor(() => seen.events.some((e) => e.t === "heads"), "heads after the later edit", 10_000);
  });

  it("owns the body only once the replica holds the snapshot the editor shows, when the stored bytes are older", async () => {
    const { plan, replica, client } = setup("Hello from Alic", null, undefined, false);
    // The core's stored bytes lag its live document (the storage's save delay); its snapshot is the live text.
    const stored = bytesToBase64(A.save(plan.doc()));
    plan.change((d) => A.splice(d, ["text"], 15, 0, "e."));
    expect(replica.handles[plan.documentId]).toBeUndefined();
    const link = client.open(plan.url, "Hello from Alice.", stored, plan.heads());
    const seen = record(link);
    // Typed at the end of what the editor shows, before the replica caught up.
    link.mirror.post({ type: "push", version: 0, updates: [{ clientID: "ed", changes: ChangeSet.of({ from: 17, insert: " And Bob." }, 17).toJSON() }] });
    await waitFor(() => seen.events.some((e) => e.t === "ready"), "ready", 10_000);
    await waitFor(() => plan.doc().text === "Hello from Alice. And Bob.", "the push at the end, at the core", 10_000);
    // No update took the snapshot's newest words away and gave them back: the editor's text was the document's.
    const updates = seen.mirror.filter((m) => m.type === "updates") as Extract<AuthorityToMirror, { type: "updates" }>[];
    expect(updates.flatMap((m) => m.updates.map((u) => u.clientID))).toEqual(["ed"]);
  });

  it("says in words when a document cannot reach the window, once", async () => {
    const { client } = setup();
    const link = client.open("automerge:2j9knpCseyhnK8izDmLpGP5WMdZQ", null, null);
    const seen = record(link);
    await waitFor(() => seen.events.some((e) => e.t === "failed"), "the failure", 10_000);
    expect(seen.events.filter((e) => e.t === "failed")).toEqual([
      { t: "failed", session: 1, code: "timeout", message: expect.stringMatching(/did not reach the window/) },
    ]);
  });

  it("drops messages for sessions it does not have and goes on serving the others", async () => {
    const { plan, client } = setup("abc");
    const stray = client.open(plan.url, "abc", null);
    stray.close();
    stray.mirror.post({ type: "push", version: 0, updates: [{ clientID: "x", changes: ChangeSet.of({ from: 0, insert: "?" }, 3).toJSON() }] });
    const link = client.open(plan.url, "abc", null);
    const seen = record(link);
    link.mirror.post({ type: "push", version: 0, updates: [{ clientID: "ed", changes: ChangeSet.of({ from: 3, insert: "d" }, 3).toJSON() }] });
    await waitFor(() => plan.doc().text === "abcd", "the live session's edit", 10_000);
    expect(seen.events.some((e) => e.t === "ready")).toBe(true);
  });

  it("keeps unconfirmed edits in the page's storage at once when the core cannot confirm", async () => {
    const storage = new MemoryStorage();
    const { plan, client } = setup("kept", storage);
    const link = client.open(plan.url, "kept", null);
    const seen = record(link);
    await waitFor(() => seen.events.some((e) => e.t === "ready"), "ready", 10_000);
    link.mirror.post({ type: "push", version: 0, updates: [{ clientID: "ed", changes: ChangeSet.of({ from: 4, insert: " this" }, 4).toJSON() }] });
    await waitFor(() => seen.mirror.some((m) => m.type === "pushed"), "the push taken", 10_000);
    link.unconfirmed();
    await waitFor(() => new OutboxStore(storage).list().length === 1, "the entry in the page's storage", 10_000);
    expect(storage.key(0)!.startsWith(OUTBOX_KEY_PREFIX)).toBe(true);
  });

  it("replays what another window kept into the replica; the core gets it and the entry goes", async () => {
    const storage = new MemoryStorage();
    // An old tab typed while the core was down and kept it.
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const plan = core.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title: "Plan", text: "start ", authors: {} } as unknown as PlanDocument);
    const oldTab = new Repo({});
    cleanups.push(() => void oldTab.shutdown());
    const kept = oldTab.import<PlanDocument>(A.save(plan.doc()), { docId: plan.documentId });
    const keeper = new OutboxKeeper({ handle: kept, store: new OutboxStore(storage), windowId: "old", page: null });
    kept.change((d) => A.splice(d, ["text"], 6, 0, "kept words"));
    keeper.stop();
    expect(new OutboxStore(storage).list()).toHaveLength(1);

    const host = startInProcessReplica({ repo: replica, api: coreApi(core), storage: storage as unknown as Storage });
    cleanups.push(host.stop);
    await waitFor(() => plan.doc().text === "start kept words", "the kept words at the core", 10_000);
    await waitFor(() => new OutboxStore(storage).list().length === 0, "the entry cleared", 10_000);
  });
});
