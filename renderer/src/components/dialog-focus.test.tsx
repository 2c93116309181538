// @vitest-environment jsdom
/**
 * Dialogs keep the focus inside (Tab and Shift+Tab cycle), start on the first sensible control, and give the focus
 * back to their opener on close, or, when the opener is gone (a deleted document's row), to the next row: never to
 * the page's <body>.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { tabbables } from "./tabbables.js";

afterEach(cleanupApps);

const focused = () => document.activeElement as HTMLElement | null;

describe("dialog focus", () => {
  it("Settings: starts on its first field, Tab and Shift+Tab wrap inside, Escape returns to the Settings button", async () => {
    renderApp();
    const opener = screen.getByRole("button", { name: "Settings" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Settings" });
    const controls = tabbables(dialog);
    expect(controls.length).toBeGreaterThan(2);
    expect(focused()).toBe(within(dialog).getByLabelText("Display name"));

    controls[controls.length - 1].focus();
    fireEvent.keyDown(focused()!, { key: "Tab" });
    expect(focused()).toBe(controls[0]);
    fireEvent.keyDown(focused()!, { key: "Tab", shiftKey: true });
    expect(focused()).toBe(controls[controls.length - 1]);
    // Between the ends, Tab is the browser's own move (inside the dialog), not the trap's.
    controls[1].focus();
    expect(fireEvent.keyDown(focused()!, { key: "Tab" })).toBe(true);

    fireEvent.keyDown(window, { key: "Escape" });
    await until(() => screen.queryByRole("dialog", { name: "Settings" }) === null, "closed");
    expect(focused()).toBe(opener);
  });

  it("Delete: Escape returns to the row's menu button; after deleting, the next row has the focus", async () => {
    const { bridge } = renderApp();
    for (const title of ["Old one", "Old two"]) {
      const doc = await bridge.api.createDocument({ title });
      await bridge.api.archiveDocument(doc.id);
    }
    fireEvent.click(screen.getByRole("checkbox", { name: "Show archived" }));
    await until(() => screen.queryAllByRole("row").length === 2, "the archived rows");
    const grid = () => screen.getByRole("grid", { name: "Archived documents" });

    const askDelete = () => {
      const menuButton = within(grid()).getByRole("button", { name: "More actions for Old two" });
      menuButton.focus();
      fireEvent.click(menuButton);
      fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
      return menuButton;
    };
    const menuButton = askDelete();
    const dialog = screen.getByRole("dialog", { name: "Delete document?" });
    expect(focused()).toBe(within(dialog).getByRole("button", { name: "Cancel" }));
    fireEvent.keyDown(window, { key: "Escape" });
    await until(() => screen.queryByRole("dialog") === null, "closed");
    expect(focused()).toBe(menuButton);

    askDelete();
    fireEvent.click(within(screen.getByRole("dialog", { name: "Delete document?" })).getByRole("button", { name: "Delete" }));
    await until(() => screen.queryByRole("dialog") === null && screen.queryAllByRole("row").length === 1, "deleted");
    await until(() => focused() === within(grid()).getByRole("button", { name: /^Old one/ }), "focus on the next row");
  });

  it("deleting the last row hands the focus to the search field", async () => {
    const { bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Only" });
    await bridge.api.archiveDocument(doc.id);
    fireEvent.click(screen.getByRole("checkbox", { name: "Show archived" }));
    await until(() => screen.queryAllByRole("row").length === 1, "the archived row");
    const menuButton = screen.getByRole("button", { name: "More actions for Only" });
    menuButton.focus();
    fireEvent.click(menuButton);
    fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
    fireEvent.click(within(screen.getByRole("dialog", { name: "Delete document?" })).getByRole("button", { name: "Delete" }));
    await until(() => screen.queryByRole("dialog") === null && screen.queryAllByRole("row").length === 0, "deleted");
    expect(focused()).toBe(screen.getByRole("searchbox", { name: "Search documents" }));
  });
});
