import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { ChopinError } from "../../../shared/errors.js";
import { OUTBOX_ENTRY_MAX_AGE_MS } from "../limits.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import { linkedRepos } from "../test/linked-repos.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { bytesToBase64 } from "./base64.js";
import { OutboxKeeper } from "./outbox-keeper.js";
import { replayOutbox, startOutboxReplay, type ReplayApi } from "./outbox-replay.js";
import { OutboxStore } from "./outbox-store.js";
import { ChangeSet } from "@codemirror/state";
import { waitFor } from "../../../shared/wait-for.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/**
 * A core (the "core" Repo of linkedRepos) answering the three calls replay makes as main/ does: not-found for a
 * document it does not hold, its saved bytes, and waitSaved that resolves only once it holds the heads.
 */
function coreApi(core: Repo) {
  const deleted = new Set<string>();
  const state = { gate: null as Promise<void> | null, waits: 0, gets: 0, down: false };
  const find = (id: string) => {
    if (state.down) throw new ChopinError("core-unavailable", "down");
    const handle = core.handles[id as never] as DocHandle<PlanDocument> | undefined;
    if (!handle || deleted.has(id)) throw new ChopinError("not-found", "No document with that id is on this device.");
    return handle;
  };
  const api: ReplayApi = {
    async getDocument(id) {
      state.gets++;
      find(id);
      return {} as never;
    },
    async readSavedDocument(id) {
      return bytesToBase64(A.save(find(id).doc()));
    },
    async waitSaved(id, heads) {
      state.waits++;
      const handle = find(id);
      await waitFor(() => A.hasHeads(handle.doc(), heads), "the core to hold the heads", 5_000);
      if (state.gate) await state.gate;
      return { documentId: id, savedAt: 1 };
    },
  };
  return { api, deleted, state };
}

const type = (handle: DocHandle<PlanDocument>, text: string) =>
  handle.change((d) => A.splice(d, ["text"], d.text.length, 0, text));

/**
 * The story: the core holds "start "; a window that has it typed while the core was down and kept its edits in the
 * outbox (the old tab). Returns the core side, a fresh window's replica (the new tab) and the shared storage.
 */
async function oldTabKeptEdits(typed = "typed while down", title = "Plan") {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const original = core.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title, text: "start ", authors: {} } as unknown as PlanDocument);
  const oldTab = new Repo({});
  cleanups.push(() => void oldTab.shutdown());
  const handle = oldTab.import<PlanDocument>(A.save(original.doc()), { docId: original.documentId });
  const storage = new MemoryStorage();
  const store = new OutboxStore(storage);
  const keeper = new OutboxKeeper({ handle, store, windowId: "old", page: null });
  type(handle, typed);
  keeper.stop();
  expect(store.list()).toHaveLength(1);
  return { core, replica, original, storage, store, oldTab: handle, ...coreApi(core) };
}

describe("replayOutbox", () => {
  it("replays text typed while the document was opening, rebased over what the document says now", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const original = core.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title: "Plan", text: "start more", authors: {} } as unknown as PlanDocument);
    const storage = new MemoryStorage();
    const store = new OutboxStore(storage);
    // The editor started from a stale snapshot ("start ") and typed "> " before it; the document has moved on since.
    const typed = ChangeSet.of({ from: 0, insert: "> " }, "start ".length);
    store.put({ documentId: original.documentId, windowId: "w:opening", title: "Plan", heads: [], typed: { baseText: "start ", changes: typed.toJSON() }, writtenAt: Date.now() });
    const report = await replayOutbox({ repo: replica, api: coreApi(core).api, store, notify: () => undefined });
    expect(report).toEqual({ restored: ["Plan"], dropped: [], kept: 0 });
    expect(original.doc().text).toBe("> start more");
    expect(store.list()).toEqual([]);
  });

  it("drops typed text that does not fit the text it names, in words", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const original = core.create<PlanDocument>({ schemaVersion: 1, kind: "plan", title: "Plan", text: "abc", authors: {} } as unknown as PlanDocument);
    const store = new OutboxStore(new MemoryStorage());
    store.put({ documentId: original.documentId, windowId: "w:opening", title: "Plan", heads: [], typed: { baseText: "abc", changes: ChangeSet.of({ from: 0, insert: "x" }, 99).toJSON() }, writtenAt: Date.now() });
    const notices: string[] = [];
    const report = await replayOutbox({ repo: replica, api: coreApi(core).api, store, notify: (m) => notices.push(m) });
    expect(report.dropped).toEqual(["Plan"]);
    expect(notices).toEqual([expect.stringMatching(/could not be read back/)]);
    expect(original.doc().text).toBe("abc");
  });

  it("restores kept edits through a new window's replica and clears them only once the core confirms", async () => {
    const t = await oldTabKeptEdits();
    let release!: () => void;
    t.state.gate = new Promise<void>((resolve) => (release = resolve));
    const notices: string[] = [];
    const pass = replayOutbox({ repo: t.replica, api: t.api, store: t.store, notify: (m) => notices.push(m) });
    await waitFor(() => t.original.doc().text === "start typed while down", "the edits to reach the core", 10_000);
    // The core holds them, but has not confirmed them on disk yet: still kept.
    await waitFor(() => t.state.waits === 1, "t.state.waits === 1");
    expect(t.store.list()).toHaveLength(1);
    release();
    expect(await pass).toEqual({ restored: ["Plan"], dropped: [], kept: 0 });
    expect(t.store.list()).toEqual([]);
    expect(notices).toEqual([]);
  });

  it("is idempotent: the same entry applied again, to a replica that already has it, changes nothing", async () => {
    const t = await oldTabKeptEdits();
    const [kept] = t.store.list();
    const options = { repo: t.replica, api: t.api, store: t.store, notify: () => undefined };
    await replayOutbox(options);
    t.storage.setItem(kept.key, kept.raw);
    expect((await replayOutbox(options)).restored).toEqual(["Plan"]);
    expect(t.original.doc().text).toBe("start typed while down");
  });

  it("keeps everything while the core cannot be reached, and says nothing", async () => {
    const t = await oldTabKeptEdits();
    t.state.down = true;
    const notices: string[] = [];
    expect(await replayOutbox({ repo: t.replica, api: t.api, store: t.store, notify: (m) => notices.push(m) })).toEqual({
      restored: [],
      dropped: [],
      kept: 1,
    });
    expect(t.store.list()).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it("drops the edits of a document deleted meanwhile and says so", async () => {
    const t = await oldTabKeptEdits("gone", "Old plan");
    t.deleted.add(t.original.documentId);
    const notices: string[] = [];
    const report = await replayOutbox({ repo: t.replica, api: t.api, store: t.store, notify: (m) => notices.push(m) });
    expect(report.dropped).toEqual(["Old plan"]);
    expect(t.store.list()).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/“Old plan”.*not restored.*deleted/);
  });

  it("restores an entry kept as the whole document", async () => {
    const t = await oldTabKeptEdits();
    const [kept] = t.store.list();
    t.store.put({ ...kept.entry, changes: undefined, document: bytesToBase64(A.save(t.oldTab.doc())) });
    expect((await replayOutbox({ repo: t.replica, api: t.api, store: t.store, notify: () => undefined })).restored).toEqual(["Plan"]);
    expect(t.original.doc().text).toBe("start typed while down");
  });

  it(`keeps an entry the core cannot confirm, until OUTBOX_ENTRY_MAX_AGE_MS after it was written; then drops it and says so`, async () => {
    const t = await oldTabKeptEdits();
    const [kept] = t.store.list();
    const refusing: ReplayApi = { ...t.api, waitSaved: () => Promise.reject(new ChopinError("timeout", "not received")) };
    const notices: string[] = [];
    const at = (age: number) =>
      replayOutbox({ repo: t.replica, api: refusing, store: t.store, notify: (m) => notices.push(m), now: () => kept.entry.writtenAt + age });
    expect((await at(OUTBOX_ENTRY_MAX_AGE_MS)).kept).toBe(1);
    expect(notices).toEqual([]);
    expect((await at(OUTBOX_ENTRY_MAX_AGE_MS + 1)).dropped).toEqual(["Plan"]);
    expect(notices[0]).toMatch(/“Plan”.*could not be restored.*30 days/);
    expect(t.store.list()).toEqual([]);
  });

  it("keeps, without waiting on the core, changes whose earlier history has not reached the window", async () => {
    const t = await oldTabKeptEdits();
    // Kept after edits the core never got: only the newest change is in the entry.
    const lost = new Repo({});
    cleanups.push(() => void lost.shutdown());
    const handle = lost.import<PlanDocument>(A.save(t.oldTab.doc()), { docId: t.original.documentId });
    const store = new OutboxStore(new MemoryStorage());
    const keeper = new OutboxKeeper({ handle, store, windowId: "w", page: null });
    keeper.confirmed(handle.heads());
    type(handle, " and more");
    keeper.stop();
    const report = await replayOutbox({ repo: t.replica, api: t.api, store, notify: () => undefined });
    expect(report.kept).toBe(1);
    expect(t.state.waits).toBe(0);
  });

  it("replays at start and again each time the link to the core opens", async () => {
    const t = await oldTabKeptEdits();
    const listeners = new Set<(s: BridgeConnectionState) => void>();
    const coreLink = { state: () => "open" as const, on: (l: (s: BridgeConnectionState) => void) => (listeners.add(l), () => listeners.delete(l)) };
    const stop = startOutboxReplay({ repo: t.replica, api: t.api, store: t.store, coreLink, notify: () => undefined });
    cleanups.push(stop);
    await waitFor(() => t.store.list().length === 0, "the first pass", 10_000);
    // The old tab keeps more edits later; the link drops (no pass) and comes back (a pass).
    const keeper = new OutboxKeeper({ handle: t.oldTab, store: t.store, windowId: "old", page: null });
    type(t.oldTab, " and more");
    keeper.stop();
    const gets = t.state.gets;
    // A pass would ask the core at once (synchronously, before its first await).
    for (const l of listeners) l("closed");
    expect(t.state.gets).toBe(gets);
    expect(t.store.list()).toHaveLength(1);
    for (const l of listeners) l("open");
    await waitFor(() => t.store.list().length === 0, "the pass after reconnecting", 10_000);
    expect(t.original.doc().text).toBe("start typed while down and more");
  });
});
