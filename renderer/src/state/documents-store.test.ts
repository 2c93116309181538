import { describe, expect, it, vi } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { OPEN_PREVIEW_WAIT_MS } from "../limits.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { createDocumentsStore, type DocumentsState } from "./documents-store.js";
import { waitFor } from "../../../shared/wait-for.js";

async function setup() {
  const bridge = createMemoryBridge();
  const store = createDocumentsStore(bridge.api);
  return { bridge, store, s: () => store.getState() };
}

describe("documents store", () => {
  it("creates, opens, renames, archives, restores, and deletes only what is archived", async () => {
    const { store, s } = await setup();
    const created = await s().create();
    expect(created?.title).toBe("Untitled plan");
    expect(s().selected?.id).toBe(created!.id);
    expect(s().documents.map((d) => d.id)).toEqual([created!.id]);

    expect(await s().rename(created!.id, "Launch plan")).toBe(true);
    expect(s().documents[0].title).toBe("Launch plan");
    expect(s().selected?.title).toBe("Launch plan");

    await s().remove(created!.id);
    expect(s().notice).toBe("Archive the document before deleting it.");
    s().dismissNotice();

    await s().archive(created!.id);
    expect(s().documents).toEqual([]);
    s().setShowArchived(true);
    await waitFor(() => s().documents.length === 1, "s().documents.length === 1");
    await s().remove(created!.id);
    expect(s().documents).toEqual([]);
    expect(s().selected).toBeNull();
    expect(store.getState().notice).toBeNull();
  });

  it("filters by the search query and never lets an older answer win", async () => {
    const { bridge, s } = await setup();
    await bridge.api.createDocument({ title: "Alpha" });
    await bridge.api.createDocument({ title: "Beta" });
    s().setQuery("alp");
    await waitFor(() => s().documents.length === 1, "s().documents.length === 1");
    expect(s().documents[0].title).toBe("Alpha");
    s().setQuery("");
    await waitFor(() => s().documents.length === 2 && !s().loading, "s().documents.length === 2 && !s().loading");
  });

  it(`cuts the search query at MAX_SEARCH_QUERY_CHARS (${MAX_SEARCH_QUERY_CHARS})`, async () => {
    const { s } = await setup();
    s().setQuery("a".repeat(MAX_SEARCH_QUERY_CHARS));
    expect(s().query.length).toBe(MAX_SEARCH_QUERY_CHARS);
    s().setQuery("a".repeat(MAX_SEARCH_QUERY_CHARS + 1));
    expect(s().query.length).toBe(MAX_SEARCH_QUERY_CHARS);
  });

  it("shows a failed action as a sentence and changes nothing", async () => {
    const { bridge, s } = await setup();
    const doc = await bridge.api.createDocument({ title: "Keep" });
    await s().refresh();
    bridge.failNext("renameDocument", new ChopinError("invalid-input", "Titles are at most 120 characters."));
    expect(await s().rename(doc.id, "x")).toBe(false);
    expect(s().notice).toBe("Titles are at most 120 characters.");
    expect(s().documents[0].title).toBe("Keep");
  });

  it("shares a private document once a team relay is configured; before, says why it cannot", async () => {
    const { bridge, s } = await setup();
    const doc = await bridge.api.createDocument({ title: "Mine" });
    await s().open(doc.id);
    await s().share(doc.id);
    expect(s().selected?.shared).toBe(false);
    expect(s().notice).toMatch(/No team relay is configured/);
    await bridge.api.updateSettings({ relayUrl: "wss://relay.example.test" });
    await s().share(doc.id);
    expect(s().selected?.shared).toBe(true);
    await s().share(doc.id);
    expect(s().notice).toBe("This document is already shared.");
  });

  it("shows an opened document once its snapshot is here, with the snapshot at hand for the first render", async () => {
    const bridge = createMemoryBridge();
    // A wait far longer than the test, so only the snapshot's arrival can show the document.
    const store = createDocumentsStore(bridge.api, { previewWaitMs: 60_000 });
    const doc = await bridge.api.createDocument({ title: "Big", markdown: "# Big" });
    bridge.snapshots.set(doc.id, { id: doc.id, title: "Big", markdown: "# Big", heads: ["h1"] });
    await store.getState().refresh();
    let release!: () => void;
    bridge.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    let atFirstShow: DocumentsState | null = null;
    store.subscribe((state) => void (state.selected && !atFirstShow && (atFirstShow = state)));

    const opened = store.getState().open(doc.id);
    await waitFor(() => bridge.calls.some((c) => c.method === "openSnapshot"), "bridge.calls.some((c) => c.method === \"openSnapshot\")");
    expect(store.getState().selected).toBeNull();
    release();
    await opened;
    expect(atFirstShow!.selected?.id).toBe(doc.id);
    expect(atFirstShow!.selectedIsPreview).toBe(true);
    expect(atFirstShow!.opening?.snapshotAnswer?.markdown).toBe("# Big");
    expect(store.getState().selectedIsPreview).toBe(false);
  });

  it("shows the document without its text when the snapshot is slower than the wait", async () => {
    const bridge = createMemoryBridge();
    const store = createDocumentsStore(bridge.api, { previewWaitMs: 20 });
    const doc = await bridge.api.createDocument({ title: "Slow" });
    await store.getState().refresh();
    let release!: () => void;
    bridge.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    const opened = store.getState().open(doc.id);
    await waitFor(() => store.getState().selected?.id === doc.id, "store.getState().selected?.id === doc.id");
    expect(store.getState().selectedIsPreview).toBe(true);
    expect(store.getState().opening?.snapshotAnswer).toBeUndefined();
    release();
    await opened;
    // No snapshot stored: the answer is null, and the full description replaces the preview.
    expect(store.getState().opening?.snapshotAnswer).toBeNull();
    expect(store.getState().selectedIsPreview).toBe(false);
  });

  it("waits exactly OPEN_PREVIEW_WAIT_MS for a slow snapshot before showing the document without its text", async () => {
    const bridge = createMemoryBridge();
    const store = createDocumentsStore(bridge.api);
    const doc = await bridge.api.createDocument({ title: "Slow" });
    await store.getState().refresh();
    let release!: () => void;
    bridge.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const opened = store.getState().open(doc.id);
      await vi.advanceTimersByTimeAsync(OPEN_PREVIEW_WAIT_MS - 1);
      expect(store.getState().selected).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(store.getState().selected?.id).toBe(doc.id);
      expect(store.getState().selectedIsPreview).toBe(true);
      release();
      await opened;
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops a snapshot answer for a document no longer being opened", async () => {
    const bridge = createMemoryBridge();
    const store = createDocumentsStore(bridge.api, { previewWaitMs: 60_000 });
    const first = await bridge.api.createDocument({ title: "First" });
    const second = await bridge.api.createDocument({ title: "Second" });
    bridge.snapshots.set(first.id, { id: first.id, title: "First", markdown: "first", heads: ["h"] });
    await store.getState().refresh();
    let release!: () => void;
    bridge.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    const openingFirst = store.getState().open(first.id);
    await waitFor(() => bridge.calls.some((c) => c.method === "openSnapshot"), "bridge.calls.some((c) => c.method === \"openSnapshot\")");
    bridge.snapshotGate = null;
    await store.getState().open(second.id);
    release();
    await openingFirst;
    expect(store.getState().selected?.id).toBe(second.id);
    expect(store.getState().opening?.id).toBe(second.id);
    expect(store.getState().opening?.snapshotAnswer).toBeNull();
  });
});
