// @vitest-environment jsdom
/** Where keyboard focus goes: the row's "More actions" menu, and the new document's title after New. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const focused = () => document.activeElement as HTMLElement | null;
const key = (name: string) => fireEvent.keyDown(focused()!, { key: name });

describe("keyboard focus", () => {
  it("the row menu opens on its first item, moves with the arrows, and Escape closes it back onto its button", async () => {
    const { bridge, services } = renderApp();
    await bridge.api.createDocument({ title: "Plan" });
    await until(() => screen.queryByRole("button", { name: "More actions for Plan" }) !== null, "listed");
    const trigger = screen.getByRole("button", { name: "More actions for Plan" });
    trigger.focus();
    fireEvent.click(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("menu", { name: "Actions for Plan" })).toBeTruthy();
    expect(focused()?.textContent).toBe("Rename");
    expect(focused()?.getAttribute("role")).toBe("menuitem");

    key("ArrowDown");
    expect(focused()?.textContent).toBe("Share with team");
    key("ArrowDown");
    expect(focused()?.textContent).toBe("Archive");
    key("ArrowDown");
    expect(focused()?.textContent).toBe("Export as Markdown");
    key("ArrowDown");
    expect(focused()?.textContent).toBe("Rename");
    key("ArrowUp");
    expect(focused()?.textContent).toBe("Export as Markdown");
    key("Home");
    expect(focused()?.textContent).toBe("Rename");

    // Escape closes only the menu: a version being viewed behind it stays open.
    services.ui.getState().viewVersion({ documentId: "other", content: { id: "v1", title: "Plan", markdown: "" }, at: 1 });
    key("Escape");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    expect(focused()).toBe(trigger);
    expect(services.ui.getState().viewingVersion).not.toBeNull();

    // ArrowUp on the closed button opens on the last item; choosing one acts and closes.
    fireEvent.keyDown(trigger, { key: "ArrowUp" });
    expect(focused()?.textContent).toBe("Export as Markdown");
    key("ArrowUp");
    expect(focused()?.textContent).toBe("Archive");
    fireEvent.click(focused()!);
    expect(screen.queryByRole("menu")).toBeNull();
    await until(() => [...bridge.docs.values()][0]?.archivedAt !== null, "archived");
  });

  it("New document puts the focus in the new document's title, selected", async () => {
    renderApp();
    const newButton = screen.getByRole("button", { name: "New document" });
    newButton.focus();
    fireEvent.click(newButton);
    await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null, "the new document");
    const title = screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;
    await until(() => focused() === title, "focus in the title");
    expect(title.selectionStart).toBe(0);
    expect(title.selectionEnd).toBe(title.value.length);
    expect(title.value.length).toBeGreaterThan(0);
  });
});
