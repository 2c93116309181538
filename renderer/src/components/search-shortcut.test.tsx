// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { DocumentSummary, ListDocumentsQuery } from "../../../shared/api.js";
import { until } from "../test/until.js";
import "../test/jsdom-layout.js";
import type { MemoryBridge } from "../test/memory-bridge.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const searchbox = () => screen.getByRole("searchbox", { name: "Search documents" }) as HTMLInputElement;
const selectsAll = (input: HTMLInputElement) => input.selectionStart === 0 && input.selectionEnd === input.value.length;

describe("search shortcut", () => {
  it("Mod+Shift+F focuses and selects the named search field, from the window or the editor; Mod+F stays the editor's find", async () => {
    renderApp();
    const field = searchbox();
    expect(field.getAttribute("aria-keyshortcuts")).toBe("Control+Shift+F Meta+Shift+F");
    fireEvent.change(field, { target: { value: "plan" } });
    field.blur();

    expect(fireEvent.keyDown(window, { key: "F", ctrlKey: true, shiftKey: true })).toBe(false);
    await until(() => document.activeElement === field, "search field focused");
    expect(selectsAll(field)).toBe(true);

    fireEvent.change(field, { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "New document" }));
    await until(() => document.querySelector(".cm-content") !== null, "the editor");
    const body = screen.getByRole("textbox", { name: "Document body" });
    body.focus();
    // Mod+F belongs to the editor: it opens the editor's own find, never the document search.
    fireEvent.keyDown(body, { key: "f", ctrlKey: true });
    await until(() => screen.queryByRole("search", { name: "Find and replace" }) !== null, "the editor's find panel");
    expect(document.activeElement).not.toBe(field);
    body.focus();

    fireEvent.keyDown(body, { key: "f", metaKey: true, shiftKey: true });
    await until(() => document.activeElement === field, "search field focused from the editor");
  });

  it("the palette lists the command with its shortcut, and running it focuses the field after the palette closes", async () => {
    renderApp();
    fireEvent.keyDown(window, { key: "k", ctrlKey: true });
    const palette = screen.getByRole("dialog", { name: "Command palette" });
    const option = within(palette).getByRole("option", { name: /Search documents/ });
    expect(option.textContent).toContain("Ctrl+Shift+F");
    const input = within(palette).getByRole("combobox", { name: "Search commands and document titles" });
    fireEvent.change(input, { target: { value: "search doc" } });
    fireEvent.keyDown(input, { key: "Enter" });
    await until(() => screen.queryByRole("dialog") === null, "palette closed");
    await until(() => document.activeElement === searchbox(), "search field focused");

    // Mod+Shift+F while the palette is open closes it and focuses the field too.
    fireEvent.keyDown(window, { key: "p", ctrlKey: true });
    expect(screen.getByRole("dialog", { name: "Command palette" })).toBeTruthy();
    fireEvent.keyDown(window, { key: "F", ctrlKey: true, shiftKey: true });
    await until(() => screen.queryByRole("dialog") === null && document.activeElement === searchbox(), "field after palette");
  });

  it("does not pull focus out of another dialog", async () => {
    renderApp();
    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const settings = screen.getByRole("dialog", { name: "Settings" });
    await until(() => settings.contains(document.activeElement), "focus in settings");
    fireEvent.keyDown(window, { key: "F", ctrlKey: true, shiftKey: true });
    expect(screen.getByRole("dialog", { name: "Settings" })).toBeTruthy();
    expect(settings.contains(document.activeElement)).toBe(true);
  });

  it("a body match shows the snippet the core sent; a title match shows none", async () => {
    const { bridge } = renderApp((bridge) => {
      const list = bridge.api.listDocuments.bind(bridge.api);
      // The core's answer for a body match (main/documents/search.ts); the memory double matches titles only.
      bridge.api.listDocuments = async (query?: ListDocumentsQuery): Promise<DocumentSummary[]> => {
        const found = await list(query);
        if (query?.query !== "kiwi") return found;
        const all = await list({ archived: query.archived });
        return all.map((d) => (d.title === "Orchard" ? { ...d, matchSnippet: "…plant the kiwi rows…" } : d));
      };
    });
    await bridge.api.createDocument({ title: "Orchard" });
    await bridge.api.createDocument({ title: "Kiwi list" });
    await until(() => screen.queryAllByRole("row").length === 2, "documents listed");
    fireEvent.change(searchbox(), { target: { value: "kiwi" } });
    const item = (name: string) => screen.getByRole("button", { name: `More actions for ${name}` }).closest("li")!;
    await until(() => item("Orchard").textContent?.includes("…plant the kiwi rows…") ?? false, "snippet shown");
    expect(item("Kiwi list").querySelector(".doc-snippet")).toBeNull();
  });
});
