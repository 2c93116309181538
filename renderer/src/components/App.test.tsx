// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { until } from "../test/until.js";
import "../test/jsdom-layout.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

/** Polls (flushing React updates) until the condition holds, with a deadline. */

describe("App", () => {
  it("offers the named controls, creates a document and edits it with a truthful save status", async () => {
    const { bridge, core } = renderApp();
    expect(screen.getByRole("navigation", { name: "Documents" })).toBeTruthy();
    expect(screen.getByRole("main")).toBeTruthy();
    expect(screen.getByRole("searchbox", { name: "Search documents" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: "Show archived" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Settings" })).toBeTruthy();
    // The welcome's way into the palette is named for what it opens; its keys are the shortcut, not its name.
    const find = screen.getByRole("button", { name: "Find a plan or command" });
    expect(find.getAttribute("aria-keyshortcuts")).toMatch(/^(Control|Meta)\+K$/);
    await until(() => screen.getByRole("status", { name: "Sync status" }).textContent === "Local only", "sync status");

    fireEvent.click(screen.getByRole("button", { name: "New document" }));
    await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null, "the document to open");
    expect((screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).value).toBe("Untitled plan");
    await until(() => document.querySelector(".cm-content") !== null, "the editor");
    const body = screen.getByRole("textbox", { name: "Document body" });
    expect(body.classList.contains("cm-content")).toBe(true);
    expect(screen.getByRole("region", { name: "Outline" })).toBeTruthy();
    await until(() => screen.getByRole("status", { name: "Save status" }).textContent === "Saved", "Saved");

    // Changes from elsewhere reach the editor and the outline.
    const id = bridge.calls.find((c) => c.method === "createDocument") && [...bridge.docs.keys()][0];
    const coreHandle = await core.find<{ text: string }>(bridge.docs.get(id!)!.url as never);
    coreHandle.change((d) => {
      d.text = "# Goals\n\nShip it";
    });
    await until(() => body.textContent?.includes("Ship it") ?? false, "remote text in the editor");
    await until(() => within(screen.getByRole("region", { name: "Outline" })).queryByRole("button", { name: "Goals" }) !== null, "outline");

    const waitSavedCalls = bridge.calls.filter((c) => c.method === "waitSaved").length;
    expect(waitSavedCalls).toBeGreaterThanOrEqual(1);

    // Renaming through the title field goes through the API.
    const title = screen.getByRole("textbox", { name: "Document title" });
    fireEvent.focus(title);
    fireEvent.change(title, { target: { value: "Launch plan" } });
    fireEvent.blur(title);
    await until(() => bridge.docs.get(id!)!.title === "Launch plan", "rename");
    await until(() => screen.getByRole("navigation").textContent?.includes("Launch plan") ?? false, "sidebar title");
  });

  it("opens the palette, history and settings from the keyboard, and Escape closes dialogs", async () => {
    const { bridge } = renderApp();
    await bridge.api.createDocument({ title: "Alpha" });
    await bridge.api.createDocument({ title: "Beta" });
    await until(() => screen.queryAllByRole("row").length >= 2, "documents listed");

    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const palette = screen.getByRole("dialog", { name: "Command palette" });
    const input = within(palette).getByRole("combobox", { name: "Search commands and document titles" });
    await until(() => within(palette).queryAllByRole("option").some((o) => o.textContent?.includes("Beta")), "documents in palette");
    fireEvent.change(input, { target: { value: "bet" } });
    expect(within(palette).getAllByRole("option").map((o) => o.textContent)).toEqual(["DocumentBetaPrivate", "CommandSearch the text of all plans for “bet”"]);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.queryByRole("dialog")).toBeNull();
    await until(() => (screen.queryByRole("textbox", { name: "Document title" }) as HTMLInputElement | null)?.value === "Beta", "Beta open");

    fireEvent.keyDown(window, { key: "H", ctrlKey: true, shiftKey: true });
    expect(screen.getByRole("region", { name: "Version history" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    expect(screen.getByRole("dialog", { name: "Settings" })).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("deletes only archived documents, after a confirmation", async () => {
    const { bridge } = renderApp();
    await bridge.api.createDocument({ title: "Old" });
    await until(() => screen.queryByRole("button", { name: "More actions for Old" }) !== null, "listed");
    fireEvent.click(screen.getByRole("button", { name: "More actions for Old" }));
    expect(screen.queryByRole("menuitem", { name: "Delete…" })).toBeNull();
    fireEvent.click(screen.getByRole("menuitem", { name: "Archive" }));
    await until(() => screen.queryByRole("button", { name: "More actions for Old" }) === null, "archived");

    fireEvent.click(screen.getByRole("checkbox", { name: "Show archived" }));
    await until(() => screen.queryByRole("button", { name: "More actions for Old" }) !== null, "archived list");
    fireEvent.click(screen.getByRole("button", { name: "More actions for Old" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
    const confirm = screen.getByRole("dialog", { name: "Delete document?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await until(() => bridge.docs.size === 0, "deleted");
    await until(() => screen.queryByRole("dialog") === null, "confirm closed");
  });

  it("shows the relay's states in words as events arrive", async () => {
    const { bridge } = renderApp();
    const status = () => screen.getByRole("status", { name: "Sync status" }).textContent;
    act(() => bridge.emit("sync-status", { state: "offline", pendingChanges: 3, relayUrl: "ws://r", lastError: null }));
    expect(status()).toContain("Offline — 3 changes waiting");
    act(() =>
      bridge.emit("sync-status", {
        state: "unauthorized",
        pendingChanges: 0,
        relayUrl: "ws://r",
        lastError: { code: "unauthorized", message: "The relay did not accept this token." },
      }),
    );
    // The reason is said once, in the detail: the label only says what it means for the person.
    expect(status()).toContain("Cannot join the team");
    expect(status()).toContain("The relay did not accept this token.");
  });
});
