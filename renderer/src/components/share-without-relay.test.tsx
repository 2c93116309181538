// @vitest-environment jsdom
/**
 * Sharing is not offered as working while no team relay is configured: the row menu's "Share with team" and the
 * open document's "Share" stay visible and focusable but are announced as unavailable, say why, and do nothing;
 * once a relay is configured (Settings), both work.
 */
import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { NO_RELAY_REASON } from "./use-relay-configured.js";

afterEach(cleanupApps);

const shareCalls = (bridge: ReturnType<typeof renderApp>["bridge"]) => bridge.calls.filter((c) => c.method === "shareDocument");

describe("share actions without a team relay", () => {
  it("are disabled with the reason while no relay is configured, and work once one is", async () => {
    const { bridge } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Plan" });
    await until(() => screen.queryByRole("button", { name: "More actions for Plan" }) !== null, "listed");

    fireEvent.click(screen.getByRole("button", { name: "More actions for Plan" }));
    const item = screen.getByRole("menuitem", { name: "Share with team" });
    expect(item.getAttribute("aria-disabled")).toBe("true");
    expect(screen.getByRole("menuitem", { name: "Share with team", description: NO_RELAY_REASON })).toBe(item);
    // The other items are not affected.
    expect(screen.getByRole("menuitem", { name: "Rename" }).getAttribute("aria-disabled")).toBeNull();
    fireEvent.click(item);
    fireEvent.keyDown(item, { key: "Escape" });

    fireEvent.click(screen.getByRole("button", { name: /^Plan/ }));
    await until(() => screen.queryByRole("button", { name: "Share" }) !== null, "the document header");
    const share = screen.getByRole("button", { name: "Share", description: NO_RELAY_REASON });
    expect(share.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(share);
    expect(shareCalls(bridge)).toEqual([]);

    await act(async () => void (await bridge.api.updateSettings({ relayUrl: "wss://relay.example.test" })));
    await until(() => screen.getByRole("button", { name: "Share" }).getAttribute("aria-disabled") === null, "Share enabled");
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    // Sharing cannot be undone: it asks first, naming the relay, and Cancel shares nothing.
    await until(() => screen.queryByRole("dialog", { name: "Share with your team?" }) !== null, "the confirmation");
    const ask = screen.getByRole("dialog", { name: "Share with your team?" });
    expect(ask.textContent).toContain("the team relay at wss://relay.example.test");
    fireEvent.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(shareCalls(bridge)).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Share" }));
    await until(() => screen.queryByRole("dialog", { name: "Share with your team?" }) !== null, "the confirmation");
    const again = screen.getByRole("dialog", { name: "Share with your team?" });
    fireEvent.click(within(again).getByRole("button", { name: "Share" }));
    await until(() => bridge.docs.get(doc.id)?.shared === true, "shared");
    expect(shareCalls(bridge)).toHaveLength(1);
  });

  it("the row menu's Share with team works once a relay is configured", async () => {
    const { bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    const doc = await bridge.api.createDocument({ title: "Plan", shared: false });
    await until(() => screen.queryByRole("button", { name: "More actions for Plan" }) !== null, "listed");
    fireEvent.click(screen.getByRole("button", { name: "More actions for Plan" }));
    await until(() => screen.getByRole("menuitem", { name: "Share with team" }).getAttribute("aria-disabled") === null, "enabled");
    fireEvent.click(screen.getByRole("menuitem", { name: "Share with team" }));
    await until(() => screen.queryByRole("dialog", { name: "Share with your team?" }) !== null, "the confirmation");
    const ask = screen.getByRole("dialog", { name: "Share with your team?" });
    expect(bridge.docs.get(doc.id)?.shared).toBe(false);
    fireEvent.click(within(ask).getByRole("button", { name: "Share" }));
    await until(() => bridge.docs.get(doc.id)?.shared === true, "shared");
  });

  it("a shared plan's badge says it is not syncing once the relay address is removed", async () => {
    const { bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await bridge.api.createDocument({ title: "Plan" });
    await until(() => screen.queryByRole("button", { name: /^Plan/ }) !== null, "listed");
    fireEvent.click(screen.getByRole("button", { name: /^Plan/ }));
    await until(() => screen.queryByTitle("Synced with your team's relay") !== null, "the shared badge");
    await act(async () => void (await bridge.api.updateSettings({ relayUrl: null })));
    await until(() => screen.queryByTitle(/no team relay is set up now, so it is not syncing/) !== null, "the badge says why");
    expect(screen.getByTitle(/not syncing/).textContent).toContain("Shared");
  });
});
