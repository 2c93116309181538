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
    // The person came to type the relay address: the focus starts there, not in the display name.
    await until(() => document.activeElement === screen.getByLabelText("Relay URL"), "focus in the relay address");
  });

  it("is offered when a relay address is set but there is nothing to sign in with", async () => {
    const { services } = renderApp();
    services.connection.setState({
      sync: {
        state: "unauthorized",
        pendingChanges: 2,
        relayUrl: "wss://team.example",
        lastError: { code: "unauthorized", message: "Chopin has nothing to sign in to the team relay…", details: { missing: "credential" } },
      } as never,
    });
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) !== null, "the button");
    // A relay that refused the token is another matter: the words say so, and no "join" is offered.
    services.connection.setState({
      sync: { state: "unauthorized", pendingChanges: 0, relayUrl: "wss://team.example", lastError: { code: "unauthorized", message: "Your access to this relay was revoked." } } as never,
    });
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) === null, "the button gone");
  });

  it("Settings opened another way starts with the focus in the display name, as before", async () => {
    const { services } = renderApp();
    services.ui.getState().openDialog("settings", "relay");
    services.ui.getState().closeDialog();
    services.ui.getState().openDialog("settings");
    await until(() => screen.queryByRole("dialog", { name: "Settings" }) !== null, "Settings open");
    await until(() => document.activeElement === screen.getByLabelText("Display name"), "focus in the display name");
  });

  it("is not offered once connected to a relay", async () => {
    const { services } = renderApp();
    // The memory core starts local only (no relay): the button is there, then goes once the status says connected.
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) !== null, "the button");
    services.connection.setState({ sync: { state: "connected", pendingChanges: 0, relayUrl: "wss://r" } as never });
    await until(() => screen.queryByRole("button", { name: "Join a team…" }) === null, "the button gone");
    expect(screen.getByRole("status", { name: "Sync status" }).textContent).toMatch(/Connected/);
  });

  it("the GitHub account button opens Settings at the GitHub account section", async () => {
    renderApp();
    const button = await screen.findByRole("button", { name: /^GitHub account:/ });
    fireEvent.click(button);
    await until(() => screen.queryByRole("dialog", { name: "Settings" }) !== null, "Settings open");
    await until(() => document.activeElement === screen.getByRole("heading", { name: "GitHub account" }), "focus at the GitHub section");
  });
});
