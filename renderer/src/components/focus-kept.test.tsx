// @vitest-environment jsdom
/**
 * The focus never falls to the page itself (UX audit): Escape in the title, a settings save, leaving a viewed
 * version, closing history, opening a plan from the palette; and window shortcuts do not act behind a dialog.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const focused = () => document.activeElement;
const titleBox = () => screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;

async function openPlan(app: ReturnType<typeof renderApp>, title: string) {
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText(title) !== null, `${title} listed`);
  fireEvent.click(within(nav).getByText(title));
  await until(() => app.services.editor.getState().view?.state.readOnly === false && titleBox().value === title, `${title} open`);
}

describe("the focus is kept", () => {
  it("Escape in the title goes back to the body, with the title as it was", async () => {
    const app = renderApp();
    await app.bridge.api.createDocument({ title: "Plan", markdown: "text" });
    await openPlan(app, "Plan");
    titleBox().focus();
    fireEvent.change(titleBox(), { target: { value: "Typo" } });
    fireEvent.keyDown(titleBox(), { key: "Escape" });
    expect(focused()).toBe(app.services.editor.getState().view!.contentDOM);
    expect(titleBox().value).toBe("Plan");
  });

  it("Save settings keeps the focus on the button while it saves", async () => {
    const app = renderApp();
    await until(() => app.services.session.getState().settings !== null, "settings loaded");
    app.services.ui.getState().openDialog("settings");
    const dialog = await screen.findByRole("dialog", { name: "Settings" });
    fireEvent.change(within(dialog).getByLabelText("Display name"), { target: { value: "Ada Lovelace" } });
    const save = within(dialog).getByRole("button", { name: "Save settings" });
    save.focus();
    fireEvent.click(save);
    expect(focused()).toBe(save);
    await until(() => within(dialog).queryByText("Settings saved.") !== null, "saved");
    expect(focused()).toBe(save);
  });

  it("Back to current returns to the version it came from; closing history returns to its button", async () => {
    const app = renderApp((b) => {
      b.api.readVersion = async (_id, versionId) => ({ id: versionId, title: "Plan", markdown: versionId });
    });
    const doc = await app.bridge.api.createDocument({ title: "Plan" });
    app.bridge.versions.set(doc.id, [
      { id: "v2", heads: [], authors: ["Ada"], at: 2, summary: "+4 characters", changeCount: 1 },
      { id: "v1", heads: [], authors: ["Ada"], at: 1, summary: "Created", changeCount: 1 },
    ]);
    await openPlan(app, "Plan");
    fireEvent.click(screen.getByRole("button", { name: "Version history" }));
    await until(() => screen.queryByText("Created") !== null, "the versions");
    const older = screen.getByText("Created").closest("button")!;
    older.focus();
    fireEvent.click(older);
    const back = await screen.findByRole("button", { name: "Back to current" });
    back.focus();
    fireEvent.click(back);
    await until(() => screen.queryByRole("button", { name: "Back to current" }) === null, "the version view closed");
    await until(() => focused() === older, "the focus back on the version");

    screen.getByRole("button", { name: "Close version history" }).focus();
    fireEvent.click(screen.getByRole("button", { name: "Close version history" }));
    expect(focused()).toBe(screen.getByRole("button", { name: "Version history" }));
  });

  it("a plan opened from the palette takes the focus in its body", async () => {
    const app = renderApp();
    await app.bridge.api.createDocument({ title: "First", markdown: "one" });
    await app.bridge.api.createDocument({ title: "Second", markdown: "two" });
    await openPlan(app, "First");
    app.services.editor.getState().view!.focus();
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const input = await screen.findByRole("combobox", { name: "Search commands and document titles" });
    fireEvent.change(input, { target: { value: "Second" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await until(() => titleBox().value === "Second" && app.services.editor.getState().view?.state.readOnly === false, "Second open");
    await until(() => focused() === app.services.editor.getState().view!.contentDOM, "the focus in Second's body");
  });

  it("the palette offers to search the text of every plan, which the sidebar then shows", async () => {
    const app = renderApp();
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const input = await screen.findByRole("combobox", { name: "Search commands and document titles" });
    fireEvent.change(input, { target: { value: "zebrafish" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await until(() => app.services.documents.getState().query === "zebrafish", "the sidebar's query");
    expect(focused()).toBe(screen.getByRole("searchbox", { name: /Search/ }));
  });

  it("Mod+N, Mod+K and Mod+Shift+H do nothing behind an open dialog", async () => {
    const app = renderApp();
    await app.bridge.api.createDocument({ title: "Plan" });
    await openPlan(app, "Plan");
    app.services.ui.getState().openDialog("settings");
    const dialog = await screen.findByRole("dialog", { name: "Settings" });
    const field = within(dialog).getByLabelText("Display name");
    field.focus();
    fireEvent.keyDown(field, { key: "n", ctrlKey: true });
    fireEvent.keyDown(field, { key: "k", ctrlKey: true });
    fireEvent.keyDown(field, { key: "H", ctrlKey: true, shiftKey: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.bridge.docs.size).toBe(1);
    expect(app.services.ui.getState().dialog).toBe("settings");
    expect(app.services.ui.getState().historyOpen).toBe(false);
    expect(focused()).toBe(field);
  });
});
