// @vitest-environment jsdom
/**
 * The save status is read out only when it matters (UX audit: "Saving… Saved" twice a keystroke over a person's
 * typing), and the core-down alert says one thing for as long as the core is away (it flipped every few seconds).
 */
import { afterEach, describe, expect, it } from "vitest";
import { act, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { coreDownWords } from "./StatusBar.js";

afterEach(cleanupApps);

describe("the save status's live words", () => {
  it("stay silent through saving and saved, say a failure with its reason, then that saving works again", async () => {
    const app = renderApp();
    await app.bridge.api.createDocument({ title: "Plan" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Plan") !== null, "listed");
    act(() => within(nav).getByText("Plan").click());
    await until(() => app.services.documents.getState().selected !== null, "open");
    const live = () => screen.getByTestId("save-announcement").textContent;
    const visible = () => screen.getByRole("status", { name: "Save status" });
    const set = (save: object) => act(() => app.services.editor.setState({ save: save as never }));

    for (let i = 0; i < 3; i++) {
      set({ kind: "saving" });
      expect(visible().textContent).toBe("Saving…");
      set({ kind: "saved", at: Date.now() });
      expect(visible().textContent).toBe("Saved");
    }
    expect(live()).toBe("");
    expect(visible().getAttribute("aria-live")).toBe("off");

    set({ kind: "failed", message: "the disk is full" });
    expect(live()).toBe("Not saved yet — the disk is full");
    set({ kind: "saving" });
    expect(live()).toBe("Not saved yet — the disk is full");
    set({ kind: "saved", at: Date.now() });
    expect(live()).toBe("Saved again");
    set({ kind: "saving" });
    set({ kind: "saved", at: Date.now() });
    expect(live()).toBe("Saved again");
  });
});

describe("the core-down alert", () => {
  it("says connecting only before the first connection, and one message while the core stays away", () => {
    expect(coreDownWords("connecting", false)).toBe("Connecting to Chopin…");
    expect(coreDownWords("connecting", true)).toBe(coreDownWords("closed", true));
    expect(coreDownWords("closed", false)).toBe("Lost the connection to Chopin — reconnecting…");
  });
});
