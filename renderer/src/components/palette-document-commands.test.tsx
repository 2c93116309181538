// @vitest-environment jsdom
/**
 * The palette offers what the sidebar's row menu does, for the open document: rename (focus in the title), archive,
 * share (asking first, with a relay); for an archived one, restore and delete (asking first). Nothing needs the list
 * or the mouse (UX audit).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { filterPalette } from "./CommandPalette.js";

afterEach(cleanupApps);

function runFromPalette(name: RegExp): void {
  fireEvent.keyDown(window, { key: "k", ctrlKey: true });
  const palette = screen.getByRole("dialog", { name: "Command palette" });
  fireEvent.mouseDown(within(palette).getByRole("option", { name }));
}

async function openPlan(services: ReturnType<typeof renderApp>["services"], bridge: ReturnType<typeof renderApp>["bridge"]) {
  const doc = await bridge.api.createDocument({ title: "Plan" });
  await services.documents.getState().open(doc.id);
  await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null, "the plan open");
  return doc;
}

describe("palette commands for the open document", () => {
  it("rename puts the focus in the title, text selected", async () => {
    const { services, bridge } = renderApp();
    await openPlan(services, bridge);
    runFromPalette(/Rename document/);
    const title = screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;
    await until(() => document.activeElement === title, "the title focused");
    expect([title.selectionStart, title.selectionEnd]).toEqual([0, "Plan".length]);
  });

  it("archive, then restore and delete (after asking) for the archived document", async () => {
    const { services, bridge } = renderApp();
    const doc = await openPlan(services, bridge);
    runFromPalette(/Archive document/);
    await until(() => bridge.docs.get(doc.id)?.archivedAt != null, "archived");
    await until(() => services.documents.getState().selected?.archivedAt != null, "the open document archived");
    runFromPalette(/Restore document/);
    await until(() => bridge.docs.get(doc.id)?.archivedAt === null, "restored");
    runFromPalette(/Archive document/);
    await until(() => services.documents.getState().selected?.archivedAt != null, "archived again");
    runFromPalette(/Delete document/);
    const confirm = screen.getByRole("dialog", { name: "Delete document?" });
    expect(bridge.docs.has(doc.id)).toBe(true);
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await until(() => !bridge.docs.has(doc.id), "deleted");
  });

  it("share asks first, and is offered only for a private document with a relay", async () => {
    const { services, bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await services.session.getState().load();
    const doc = await bridge.api.createDocument({ title: "Plan", shared: false });
    await services.documents.getState().open(doc.id);
    runFromPalette(/Share document with team/);
    const confirm = screen.getByRole("dialog", { name: "Share with your team?" });
    expect(bridge.docs.get(doc.id)?.shared).toBe(false);
    fireEvent.click(within(confirm).getByRole("button", { name: "Share" }));
    await until(() => bridge.docs.get(doc.id)?.shared === true, "shared");
  });
});

describe("palette filtering", () => {
  it("matches every word anywhere, case and accents ignored", () => {
    const item = (label: string) => ({ id: label, label, kind: "document" as const, run: () => undefined });
    const items = [item("Überblick Q3"), item("Café launch"), item("New document")];
    expect(filterPalette(items, "uberblick").map((i) => i.label)).toEqual(["Überblick Q3"]);
    expect(filterPalette(items, "launch cafe").map((i) => i.label)).toEqual(["Café launch"]);
    expect(filterPalette(items, "  ")).toHaveLength(3);
  });

  it("puts the closest match first: a whole word, then a word's start, then anywhere", () => {
    const item = (label: string) => ({ id: label, label, kind: "command" as const, run: () => undefined });
    const items = [item("Show archived documents"), item("Archive document"), item("Unarchive the document")];
    expect(filterPalette(items, "archive doc").map((i) => i.label)).toEqual(["Archive document", "Show archived documents", "Unarchive the document"]);
  });
});
