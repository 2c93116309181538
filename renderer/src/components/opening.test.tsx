// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { until } from "../test/until.js";
import { undo } from "@codemirror/commands";
import type { DocHandle } from "@automerge/automerge-repo";
import "../test/jsdom-layout.js";
import { linkedRepos } from "../test/linked-repos.js";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { App } from "./App.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  stopTestReplicas();
  cleanup();
  while (cleanups.length) cleanups.pop()!();
});


/** The app around a core Repo holding one document, with the replica's load held until `release()`. */
async function setup(markdown: string) {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const bridge = createMemoryBridge(core);
  const services = createAppServices(bridge, testReplica(replica, bridge.api));
  const detail = await bridge.api.createDocument({ title: "Big plan", markdown });
  const coreHandle = (await core.find(detail.url as never)) as DocHandle<{ text: string }>;
  let release!: () => void;
  bridge.savedGate = new Promise<void>((resolve) => (release = resolve));
  render(
    <AppServicesContext.Provider value={services}>
      <App />
    </AppServicesContext.Provider>,
  );
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Big plan") !== null, "the document in the list");
  const open = () => fireEvent.click(within(nav).getByText("Big plan"));
  return { bridge, services, coreHandle, id: detail.id, open, release };
}

const content = () => document.querySelector(".cm-content") as HTMLElement | null;
const shownText = () => [...(content()?.querySelectorAll(".cm-line") ?? [])].map((l) => l.textContent).join("\n");
const saveStatus = () => screen.getByRole("status", { name: "Save status" }).textContent;

describe("opening a document from its snapshot", () => {
  it("paints the snapshot editable at once; what is typed before the document loads is kept and saved after", async () => {
    const { bridge, services, coreHandle, id, open, release } = await setup("# Snap\nbody text");
    bridge.snapshots.set(id, { id, title: "Big plan", markdown: "# Snap\nbody text", heads: coreHandle.heads() });
    open();
    await until(() => shownText() === "# Snap\nbody text", "the snapshot text");
    const painted = content()!;
    expect(painted.getAttribute("contenteditable")).toBe("true");
    expect(saveStatus()).toBe("Opening…");
    // The repository binding is not known yet: no control rather than a wrong one.
    expect(screen.queryByRole("group", { name: "Repository" })).toBeNull();
    const view = services.editor.getState().view!;
    expect(view.state.readOnly).toBe(false);
    view.dispatch({ changes: { from: view.state.doc.length, insert: "!" }, userEvent: "input.type" });

    // The replica has not loaded the document: the edit waits in the editor, unsaved.
    expect(coreHandle.doc().text).toBe("# Snap\nbody text");
    release();
    await until(() => coreHandle.doc().text === "# Snap\nbody text!", "the edit typed while opening to reach the core");
    expect(content()).toBe(painted);
    expect(services.editor.getState().view).toBe(view);
    await until(() => saveStatus() === "Saved", "Saved");
    await until(() => screen.queryByRole("group", { name: "Repository" }) !== null, "the full header");
  });

  it("paints a snapshot that is already here in the document's first render, with no empty page before it", async () => {
    const { bridge, coreHandle, id, open, release } = await setup("# Snap\nbody text");
    bridge.snapshots.set(id, { id, title: "Big plan", markdown: "# Snap\nbody text", heads: coreHandle.heads() });
    // Every element that came or went, looked at when it did: an "Opening…" page shown even briefly is caught.
    let emptyPage = false;
    let headerWithText = false;
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of [...record.addedNodes, ...record.removedNodes]) {
          if (!(node instanceof Element)) continue;
          if (node.matches(".doc-loading") || node.querySelector(".doc-loading")) emptyPage = true;
          if (node.querySelector(".doc-header") && node.querySelector(".cm-content")) headerWithText = true;
        }
      }
    });
    observer.observe(document.body, { subtree: true, childList: true });
    open();
    await until(() => shownText() === "# Snap\nbody text", "the snapshot text");
    observer.disconnect();
    expect(emptyPage).toBe(false);
    // The header came with the text, in the same commit.
    expect(headerWithText).toBe(true);
    release();
    await until(() => saveStatus() === "Saved", "Saved");
  });

  it("brings a stale snapshot up to the loaded text, keeping what was typed meanwhile; the catch-up is not undoable", async () => {
    const { bridge, services, coreHandle, id, open, release } = await setup("line one\nline two, current");
    bridge.snapshots.set(id, { id, title: "Big plan", markdown: "line one\nline two", heads: ["stale-head"] });
    open();
    await until(() => shownText() === "line one\nline two", "the stale snapshot");
    const view = services.editor.getState().view!;
    view.dispatch({ changes: { from: 0, insert: "> " }, userEvent: "input.type" });
    release();
    await until(() => shownText() === "> line one\nline two, current", "the loaded text with the edit kept");
    await until(() => coreHandle.doc().text === "> line one\nline two, current", "the core to have both");
    expect(undo(view)).toBe(true);
    await until(() => coreHandle.doc().text === "line one\nline two, current", "the undo of the typing only");
    expect(undo(view)).toBe(false);
  });

  it("without a snapshot or stored bytes, opens straight into the editable editor through sync", async () => {
    const { bridge, open, release } = await setup("small");
    bridge.savedDocuments = false;
    release();
    open();
    await until(() => content()?.getAttribute("contenteditable") === "true", "the editor");
    expect(shownText()).toBe("small");
    expect(bridge.calls.map((c) => c.method)).toEqual(expect.arrayContaining(["openSnapshot", "readSavedDocument", "getDocument"]));
  });
});
