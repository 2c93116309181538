// @vitest-environment jsdom
/**
 * The palette's starting row is the first, wherever the mouse pointer rests: the list appearing under a still
 * pointer made the row below it active, so Ctrl+K, Enter ran "New private document" (UX audit). A row follows the
 * pointer once it really moves.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

function openPalette() {
  fireEvent.keyDown(window, { key: "k", ctrlKey: true });
  const palette = screen.getByRole("dialog", { name: "Command palette" });
  return { palette, options: within(palette).getAllByRole("option") };
}

/** What a browser sends when a row appears under a pointer that does not move. */
function appearUnderRestingPointer(row: HTMLElement) {
  fireEvent.mouseOver(row, { clientX: 60, clientY: 40 });
  fireEvent.mouseEnter(row, { clientX: 60, clientY: 40 });
  fireEvent.mouseMove(row, { clientX: 60, clientY: 40 });
}

describe("the palette under a resting mouse pointer", () => {
  it("starts on the first row, so Enter runs it; a row follows the pointer once it moves", async () => {
    const { services, bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await services.session.getState().load();

    const first = openPalette();
    expect(first.options[1].textContent).toContain("New private document");
    appearUnderRestingPointer(first.options[1]);
    expect(first.options[0].getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(within(first.palette).getByRole("combobox"), { key: "Enter" });
    await until(() => bridge.docs.size === 1, "a document created");
    expect([...bridge.docs.values()][0].shared).toBe(true);

    const second = openPalette();
    appearUnderRestingPointer(second.options[1]);
    fireEvent.mouseMove(second.options[1], { clientX: 62, clientY: 43 });
    expect(second.options[1].getAttribute("aria-selected")).toBe("true");
  });
});
