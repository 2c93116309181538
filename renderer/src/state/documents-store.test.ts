import { describe, expect, it } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { waitFor } from "../test/wait-for.js";
import { createDocumentsStore } from "./documents-store.js";

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
    await waitFor(() => s().documents.length === 1);
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
    await waitFor(() => s().documents.length === 1);
    expect(s().documents[0].title).toBe("Alpha");
    s().setQuery("");
    await waitFor(() => s().documents.length === 2 && !s().loading);
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

  it("shares a private document", async () => {
    const { bridge, s } = await setup();
    const doc = await bridge.api.createDocument({ title: "Mine" });
    await s().open(doc.id);
    await s().share(doc.id);
    expect(s().selected?.shared).toBe(true);
    await s().share(doc.id);
    expect(s().notice).toBe("This document is already shared.");
  });
});
