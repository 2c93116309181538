// @vitest-environment jsdom
/**
 * Keyboard-only writing: New puts the focus in the title, Enter moves it into the body (caret where writing goes on),
 * also when the body becomes editable only after Enter; the title is committed on the way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const focused = () => document.activeElement;
const titleBox = () => screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;

describe("Enter in the title", () => {
  it("after Mod+N, moves the focus into the empty body, and the title typed before it is kept", async () => {
    const { bridge, services } = renderApp();
    fireEvent.keyDown(window, { key: "n", ctrlKey: true });
    await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null && focused() === titleBox(), "focus in the new title");
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");

    fireEvent.change(titleBox(), { target: { value: "Launch plan" } });
    fireEvent.keyDown(titleBox(), { key: "Enter" });
    const view = services.editor.getState().view!;
    expect(focused()).toBe(view.contentDOM);
    expect(view.hasFocus).toBe(true);
    expect(view.state.selection.main.head).toBe(0);
    await until(() => [...bridge.docs.values()][0]?.title === "Launch plan", "the title committed");
  });

  it("puts the caret at the end of a body that has text", async () => {
    const { bridge, services } = renderApp();
    await bridge.api.createDocument({ title: "Notes", markdown: "# Notes\n\nfirst line" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Notes") !== null, "listed");
    fireEvent.click(within(nav).getByText("Notes"));
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");
    titleBox().focus();
    fireEvent.keyDown(titleBox(), { key: "Enter" });
    const view = services.editor.getState().view!;
    expect(focused()).toBe(view.contentDOM);
    expect(view.state.selection.main.head).toBe("# Notes\n\nfirst line".length);
  });

  it("before the body is there (no snapshot to start from): the body takes the focus the moment it is", async () => {
    const { bridge, services } = renderApp();
    let release!: () => void;
    bridge.savedGate = new Promise<void>((resolve) => (release = resolve));
    const doc = await bridge.api.createDocument({ title: "Held", markdown: "held text" });
    bridge.snapshots.delete(doc.id);
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Held") !== null, "listed");
    fireEvent.click(within(nav).getByText("Held"));
    await until(() => titleBox() !== null && document.querySelector(".doc-loading") !== null, "the document opening, its body not there yet");
    expect(services.editor.getState().view).toBeNull();

    titleBox().focus();
    fireEvent.keyDown(titleBox(), { key: "Enter" });
    expect(focused()).not.toBe(titleBox());
    expect(services.editor.getState().bodyFocusPending).toBe(true);

    release();
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor");
    const view = services.editor.getState().view!;
    await until(() => focused() === view.contentDOM, "focus in the body");
    expect(view.state.selection.main.head).toBe("held text".length);
    expect(services.editor.getState().bodyFocusPending).toBe(false);
  });
});

describe("Escape in the title", () => {
  it("puts the title back as it was and moves into the body: the typed text is not renamed in on the way out", async () => {
    const { bridge, services } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Roadmap", markdown: "body" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Roadmap") !== null, "listed");
    fireEvent.click(within(nav).getByText("Roadmap"));
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");
    // The blur on the way out commits synchronously (rename is called before commit's first await).
    const rename = services.documents.getState().rename;
    const renames: string[] = [];
    services.documents.setState({ rename: (id, title) => (renames.push(title), rename(id, title)) });
    titleBox().focus();
    fireEvent.change(titleBox(), { target: { value: "Roadmap SHOULD NOT STICK" } });
    fireEvent.keyDown(titleBox(), { key: "Escape" });
    const view = services.editor.getState().view!;
    expect(focused()).toBe(view.contentDOM);
    expect(renames).toEqual([]);
    await until(() => titleBox().value === "Roadmap", "the field shows the old title");
    expect(bridge.docs.get(doc.id)?.title).toBe("Roadmap");

    // The next edit commits as usual.
    titleBox().focus();
    fireEvent.change(titleBox(), { target: { value: "Roadmap 2" } });
    fireEvent.keyDown(titleBox(), { key: "Enter" });
    await until(() => bridge.docs.get(doc.id)?.title === "Roadmap 2", "the later title committed");
    expect(renames).toEqual(["Roadmap 2"]);
  });
});
