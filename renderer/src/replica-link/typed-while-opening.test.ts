// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { ChangeSet, Text } from "@codemirror/state";
import "../test/jsdom-layout.js";
import { MemoryStorage } from "../test/memory-storage.js";
import type { MirrorEnd } from "../mirror/editor-mirror.js";
import { createPlanEditor } from "../editor/plan-editor.js";
import { OutboxStore } from "../replica/outbox-store.js";
import { keepTypedWhileOpening, typedWindowId } from "./typed-while-opening.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function opening(loaded = false) {
  const silent: MirrorEnd = { post: () => undefined, listen: () => () => undefined };
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = createPlanEditor({ parent, text: "snapshot text", mirror: silent });
  const store = new OutboxStore(new MemoryStorage());
  const page = new EventTarget() as unknown as Window;
  const stop = keepTypedWhileOpening({ store, windowId: "w", documentId: "doc", title: () => "Plan", baseText: "snapshot text", view: () => view, loaded: () => loaded, page, now: () => 5 });
  cleanups.push(() => {
    stop();
    view.destroy();
    parent.remove();
  });
  return { view, store, page };
}

describe("text typed while a document opens", () => {
  it("is kept in the outbox when the page goes away before the window has the document", () => {
    const { view, store, page } = opening();
    view.dispatch({ changes: { from: 0, insert: "> " }, userEvent: "input.type" });
    view.dispatch({ changes: { from: view.state.doc.length, insert: "!" }, userEvent: "input.type" });
    page.dispatchEvent(new Event("pagehide"));
    const kept = store.get("doc", typedWindowId("w"))!.entry;
    expect(kept).toMatchObject({ documentId: "doc", title: "Plan", heads: [], writtenAt: 5, typed: { baseText: "snapshot text" } });
    const replayed = ChangeSet.fromJSON(kept.typed!.changes).apply(Text.of(["snapshot text"])).toString();
    expect(replayed).toBe("> snapshot text!");
  });

  it("keeps nothing when nothing was typed, or once the window has the document", () => {
    const idle = opening();
    idle.page.dispatchEvent(new Event("pagehide"));
    expect(idle.store.list()).toEqual([]);
    const ready = opening(true);
    ready.view.dispatch({ changes: { from: 0, insert: "x" }, userEvent: "input.type" });
    ready.page.dispatchEvent(new Event("pagehide"));
    expect(ready.store.list()).toEqual([]);
  });

  it("takes the entry back when the page is shown again from the back-forward cache", () => {
    const { view, store, page } = opening();
    view.dispatch({ changes: { from: 0, insert: "x" }, userEvent: "input.type" });
    page.dispatchEvent(new Event("pagehide"));
    expect(store.list()).toHaveLength(1);
    const shown = new Event("pageshow") as Event & { persisted: boolean };
    Object.defineProperty(shown, "persisted", { value: true });
    page.dispatchEvent(shown);
    expect(store.list()).toEqual([]);
  });
});
