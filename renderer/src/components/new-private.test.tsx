// @vitest-environment jsdom
/**
 * With a team relay, new documents are shared by default; the palette also offers a private one, which stays on this
 * device. Without a relay every document is private anyway, so the command is not offered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

function openPalette() {
  fireEvent.keyDown(window, { key: "k", ctrlKey: true });
  return screen.getByRole("dialog", { name: "Command palette" });
}

describe("New private document", () => {
  it("is offered with a relay and makes a document that is not shared", async () => {
    const { bridge, services } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await services.session.getState().load();
    const palette = openPalette();
    fireEvent.mouseDown(within(palette).getByRole("option", { name: /New private document/ }));
    await until(() => bridge.docs.size === 1, "the document created");
    expect([...bridge.docs.values()][0].shared).toBe(false);
  });

  it("is not offered without a relay", async () => {
    const { services } = renderApp();
    await services.session.getState().load();
    const palette = openPalette();
    expect(within(palette).queryByRole("option", { name: /New private document/ })).toBeNull();
    expect(within(palette).getByRole("option", { name: /Command\s*New document/ })).toBeTruthy();
  });
});
