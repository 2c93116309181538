// @vitest-environment jsdom
/**
 * An archived plan is read-only in the window, as the core and the MCP port already treat it: the body and the title
 * take no edits, the banner says to restore it to edit, and archiving or restoring while the plan is open flips the
 * editor in place (UX audit: the body of an archived plan could be typed into and synced).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const titleBox = () => screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;
const banner = () => screen.queryByText(/This document is archived/);

describe("an archived plan in the window", () => {
  it("locks the open editor and title when archived, and unlocks them, same editor, when restored", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Plan", markdown: "# Plan\n" });
    await services.documents.getState().open(doc.id);
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");
    const view = services.editor.getState().view!;
    expect(titleBox().readOnly).toBe(false);
    expect(banner()).toBeNull();

    await services.documents.getState().archive(doc.id);
    await until(() => view.state.readOnly, "the editor locked");
    expect(view.contentDOM.getAttribute("contenteditable")).toBe("false");
    expect(titleBox().readOnly).toBe(true);
    expect(banner()!.textContent).toContain("Restore it to edit.");
    expect(banner()!.closest("[role=status]")).not.toBeNull();

    await services.documents.getState().restore(doc.id);
    await until(() => !view.state.readOnly, "the editor unlocked");
    expect(services.editor.getState().view).toBe(view);
    expect(view.contentDOM.getAttribute("contenteditable")).toBe("true");
    expect(titleBox().readOnly).toBe(false);
    expect(banner()).toBeNull();
  });

  it("moves the focus into the body when the banner's Restore is used (the button goes with the banner)", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Plan", markdown: "text" });
    await services.documents.getState().open(doc.id);
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");
    const view = services.editor.getState().view!;
    await services.documents.getState().archive(doc.id);
    await until(() => view.state.readOnly, "the editor locked");
    const restore = within(banner()!.closest("[role=status]") as HTMLElement).getByRole("button", { name: "Restore" });
    restore.focus();
    fireEvent.click(restore);
    await until(() => document.activeElement === view.contentDOM, "the focus in the body");
    expect(view.state.readOnly).toBe(false);
    expect(view.state.selection.main.head).toBe("text".length);
  });

  it("opens an archived plan already locked", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Old", markdown: "old text" });
    await bridge.api.archiveDocument(doc.id);
    await services.documents.getState().open(doc.id);
    await until(() => services.editor.getState().documentId === doc.id, "the editor bound");
    const view = services.editor.getState().view!;
    expect(view.state.doc.toString()).toBe("old text");
    expect(view.state.readOnly).toBe(true);
    expect(titleBox().readOnly).toBe(true);
  });

  it("leaves a sidebar that says where the plan went, not that there are none", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Only plan" });
    await services.documents.getState().refresh();
    await services.documents.getState().archive(doc.id);
    await until(() => screen.queryByText(/1 archived document is under “Show archived”/) !== null, "the sidebar's words");
    expect(screen.queryByText(/No documents yet/)).toBeNull();
    await services.documents.getState().restore(doc.id);
    await until(() => screen.queryByText(/archived document/) === null, "the plan back in the list");
  });

  it("says a search's only matches are archived, and where, instead of that nothing matches", async () => {
    const { services, bridge } = renderApp();
    await bridge.api.createDocument({ title: "Live plan" });
    const doc = await bridge.api.createDocument({ title: "Offsite agenda" });
    await bridge.api.archiveDocument(doc.id);
    services.documents.getState().setQuery("offsite");
    await until(() => screen.queryByText("No documents in use match. 1 archived document does, under “Show archived”.") !== null, "the words");
    services.documents.getState().setQuery("nowhere");
    await until(() => screen.queryByText("No documents match.") !== null, "no match anywhere");
  });
});

describe("an archived plan's row and notices", () => {
  const openRowMenu = async (title: string) => {
    fireEvent.click(await screen.findByRole("button", { name: `More actions for ${title}` }));
    return screen.getByRole("menu", { name: `Actions for ${title}` });
  };

  it("offers Restore and Delete but not Rename, which the core would refuse, and a double-click opens no rename box", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Shelved" });
    await bridge.api.archiveDocument(doc.id);
    services.documents.getState().setShowArchived(true);
    const menu = await openRowMenu("Shelved");
    // An archived plan can still leave the app as a file (issue #24); only writes are withheld.
    expect(within(menu).getAllByRole("menuitem").map((item) => item.textContent)).toEqual(["Restore", "Export as Markdown", "Delete…"]);
    fireEvent.keyDown(menu, { key: "Escape" });
    fireEvent.doubleClick(screen.getByRole("button", { name: /^Shelved/ }));
    expect(screen.queryByRole("textbox", { name: "Rename document" })).toBeNull();
  });

  it("clears a failure's notice once its document is deleted, and keeps a notice about another document", async () => {
    const { services, bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Shelved" });
    const other = await bridge.api.createDocument({ title: "Other" });
    await bridge.api.archiveDocument(doc.id);
    const refused = "This document is archived; restore it to edit.";
    expect(await services.documents.getState().rename(doc.id, "New name")).toBe(false);
    await until(() => screen.queryByRole("alert")?.textContent?.includes(refused) === true, "the refusal shown");

    await services.documents.getState().remove(doc.id);
    await until(() => screen.queryByRole("alert") === null, "the notice gone with its document");

    services.documents.getState().showNotice("About the other one.", other.id);
    const third = await bridge.api.createDocument({ title: "Third" });
    await bridge.api.archiveDocument(third.id);
    await services.documents.getState().remove(third.id);
    expect(screen.getByRole("alert").textContent).toContain("About the other one.");
    await services.documents.getState().archive(other.id);
    await until(() => screen.queryByRole("alert") === null, "a success on that document clears its notice");
  });
});
