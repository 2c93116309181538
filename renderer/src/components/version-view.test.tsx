// @vitest-environment jsdom
/**
 * The version view marks the lines that version added or changed against the one before it, and offers no restore
 * for the latest version (it is what the document holds). What it is among the versions follows the list as it is
 * read again (UX audit: after a teammate wrote, the banner still said "This is the current version").
 */
import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const MARKDOWN: Record<string, string> = { v1: "# Plan\none", v2: "# Plan\none\ntwo", v1b: "# Plan\none\ntwo" };

async function openHistory() {
  const app = renderApp((b) => {
    b.api.readVersion = async (_id, versionId) => ({ id: versionId, title: "Plan", markdown: MARKDOWN[versionId] });
  });
  const doc = await app.bridge.api.createDocument({ title: "Plan" });
  app.bridge.versions.set(doc.id, [
    { id: "v2", heads: [], authors: ["Ada"], at: 2, summary: "+4 characters", changeCount: 1 },
    { id: "v1", heads: [], authors: ["Ada"], at: 1, summary: "Created", changeCount: 1 },
  ]);
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Plan") !== null, "listed");
  fireEvent.click(within(nav).getByText("Plan"));
  await until(() => screen.queryByRole("button", { name: "Version history" }) !== null, "the document header");
  fireEvent.click(screen.getByRole("button", { name: "Version history" }));
  await until(() => screen.queryByText(/Latest ·/) !== null, "the versions");
  return { panel: screen.getByRole("region", { name: "Version history" }), app, doc };
}

type App = Awaited<ReturnType<typeof openHistory>>["app"];

/** The core lists these versions now, and says the document changed (as when a teammate's edit arrives). */
function versionsBecome(app: App, id: string, versions: { id: string; authors: string[]; at: number }[]) {
  app.bridge.versions.set(id, versions.map((v) => ({ ...v, heads: [], summary: "+1 characters", changeCount: 1 })));
  act(() => app.bridge.emit("documents-changed", { ids: [id] }));
}

async function viewLatest(panel: HTMLElement) {
  fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Latest"))!);
  await until(() => screen.queryByText("This is the current version") !== null, "the latest version viewed");
}

const restoreButton = () => screen.queryByRole("button", { name: "Restore this version" });

describe("the version history panel", () => {
  it("takes the focus when it opens, on its heading", async () => {
    await openHistory();
    expect(document.activeElement?.textContent).toBe("Version history");
    expect(document.activeElement?.tagName).toBe("H2");
  });
});

describe("the version view", () => {
  it("marks what the version changed, and says the latest is current instead of offering a restore", async () => {
    const { panel } = await openHistory();
    fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Latest"))!);
    await until(() => document.querySelector(".version-viewer") !== null, "the version view");
    await until(() => document.querySelectorAll(".cm-version-changed").length === 1, "one marked line");
    expect(document.querySelector(".cm-version-changed")!.textContent).toBe("two");
    expect(document.querySelector(".version-banner")!.textContent).toContain("1 line this version added or changed, marked");
    expect(screen.getByText("This is the current version")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Restore this version" })).toBeNull();
  });

  it("marks nothing in the first version, and offers a restore for an older one", async () => {
    const { panel } = await openHistory();
    fireEvent.click(within(panel).getAllByRole("button").find((b) => b.textContent?.includes("Created"))!);
    await until(() => screen.queryByRole("button", { name: "Restore this version" }) !== null, "the restore button");
    expect(document.querySelectorAll(".cm-version-changed")).toHaveLength(0);
  });

  it("once a teammate writes after the viewed latest version, offers the restore, and the question names them", async () => {
    const { panel, app, doc } = await openHistory();
    await viewLatest(panel);
    versionsBecome(app, doc.id, [
      { id: "v3", authors: ["Bob"], at: 3 },
      { id: "v2", authors: ["Ada"], at: 2 },
      { id: "v1", authors: ["Ada"], at: 1 },
    ]);
    await until(() => restoreButton() !== null, "the restore offered");
    expect(screen.queryByText("This is the current version")).toBeNull();
    fireEvent.click(restoreButton()!);
    await until(() => screen.queryByRole("dialog", { name: "Restore this version?" }) !== null, "the question");
    expect(screen.getByRole("dialog", { name: "Restore this version?" }).textContent).toMatch(/changes by Bob\./);
  });

  it("keeps following the list with the panel closed, also when its author wrote on (its id is no longer listed)", async () => {
    const { panel, app, doc } = await openHistory();
    await viewLatest(panel);
    fireEvent.click(within(panel).getByRole("button", { name: "Close version history" }));
    expect(screen.queryByRole("region", { name: "Version history" })).toBeNull();
    // Ada wrote on: her changes up to v2 now begin a longer version, listed under another id.
    versionsBecome(app, doc.id, [
      { id: "v2-longer", authors: ["Ada"], at: 5 },
      { id: "v1", authors: ["Ada"], at: 1 },
    ]);
    await until(() => restoreButton() !== null, "the restore offered");
    expect(screen.queryByText("This is the current version")).toBeNull();
  });

  it("with the panel closed, Back to current and Escape hand the focus to the body instead of losing it", async () => {
    const { app } = await openHistory();
    const body = () => app.services.editor.getState().view?.contentDOM;
    await until(() => app.services.editor.getState().view?.state.readOnly === false, "the editor bound");
    for (const leave of ["button", "escape"] as const) {
      if (!screen.queryByRole("region", { name: "Version history" })) fireEvent.click(screen.getByRole("button", { name: "Version history" }));
      await until(() => screen.queryByText(/Latest ·/) !== null, "the versions listed");
      await viewLatest(screen.getByRole("region", { name: "Version history" }));
      fireEvent.click(within(screen.getByRole("region", { name: "Version history" })).getByRole("button", { name: "Close version history" }));
      const back = screen.getByRole("button", { name: "Back to current" });
      back.focus();
      if (leave === "button") fireEvent.click(back);
      else fireEvent.keyDown(window, { key: "Escape" });
      await until(() => screen.queryByRole("button", { name: "Back to current" }) === null, "the view closed");
      await until(() => document.activeElement === body(), `the body focused after ${leave}`);
    }
  });

  it("marks the changes against the version now before it", async () => {
    const { panel, app, doc } = await openHistory();
    await viewLatest(panel);
    await until(() => document.querySelectorAll(".cm-version-changed").length === 1, "one marked line");
    // A teammate's change made offline arrives, older than v2: it is now the version before it, with the same text.
    versionsBecome(app, doc.id, [
      { id: "v2", authors: ["Ada"], at: 2 },
      { id: "v1b", authors: ["Bob"], at: 1.5 },
      { id: "v1", authors: ["Ada"], at: 1 },
    ]);
    await until(() => document.querySelectorAll(".cm-version-changed").length === 0, "nothing marked");
    expect(screen.getByText("This is the current version")).toBeTruthy();
  });
});
