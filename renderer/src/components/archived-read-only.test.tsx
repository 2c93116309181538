// @vitest-environment jsdom
/**
 * An archived plan is read-only in the window, as the core and the MCP port already treat it: the body and the title
 * take no edits, the banner says to restore it to edit, and archiving or restoring while the plan is open flips the
 * editor in place (UX audit: the body of an archived plan could be typed into and synced).
 */
import { afterEach, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
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
});
