// @vitest-environment jsdom
/** "Local only" comes with the way into a team: a button that opens Settings, where the relay address and token go. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

describe("Join a team", () => {
  it("is offered while the app is local only and opens Settings", async () => {
    const { services } = renderApp();
    services.connection.setState({ sync: { state: "local-only", pendingChanges: 0 } as never });
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) !== null, "the button");
    fireEvent.click(screen.getByRole("button", { name: "Join a team…" }));
    await until(() => screen.queryByRole("dialog", { name: "Settings" }) !== null, "Settings open");
    expect(screen.getByLabelText("Relay URL")).toBeTruthy();
  });

  it("is not offered once connected to a relay", async () => {
    const { services } = renderApp();
    // The memory core starts local only (no relay): the button is there, then goes once the status says connected.
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) !== null, "the button");
    services.connection.setState({ sync: { state: "connected", pendingChanges: 0, relayUrl: "wss://r" } as never });
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) === null, "the button gone");
    expect(screen.getByRole("status", { name: "Sync status" }).textContent).toMatch(/Connected/);
  });
});
