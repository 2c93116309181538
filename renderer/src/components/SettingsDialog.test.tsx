// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Repo } from "@automerge/automerge-repo";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { ChopinError } from "../../../shared/errors.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { RELAY_WITHOUT_TOKEN, SettingsDialog } from "./SettingsDialog.js";
import { UNENCRYPTED_RELAY_WARNING } from "./relay-url-warning.js";

afterEach(() => {
  cleanup();
  stopTestReplicas();
});

async function renderDialog(portChangedFrom?: number, prepare: (bridge: ReturnType<typeof createMemoryBridge>) => void = () => {}) {
  const bridge = createMemoryBridge();
  prepare(bridge);
  if (portChangedFrom !== undefined) {
    const original = bridge.api.getMcpInfo.bind(bridge.api);
    bridge.api.getMcpInfo = async () => ({ ...(await original()), portChangedFrom });
  }
  const services = createAppServices(bridge, testReplica(new Repo({}), bridge.api));
  await services.session.getState().load();
  render(
    <AppServicesContext.Provider value={services}>
      <SettingsDialog />
    </AppServicesContext.Provider>,
  );
  return { bridge, services, dialog: screen.getByRole("dialog", { name: "Settings" }) };
}

describe("SettingsDialog", () => {
  it("keeps what the person typed when settings arrive late or change in another window, and saves it", async () => {
    const bridge = createMemoryBridge();
    const services = createAppServices(bridge, testReplica(new Repo({}), bridge.api));
    let stop = () => {};
    // Opened before the window had loaded the settings (start() loads them, and follows other windows' saves).
    render(
      <AppServicesContext.Provider value={services}>
        <SettingsDialog />
      </AppServicesContext.Provider>,
    );
    const dialog = screen.getByRole("dialog", { name: "Settings" });
    const name = within(dialog).getByLabelText("Display name") as HTMLInputElement;
    const url = within(dialog).getByLabelText("Relay URL") as HTMLInputElement;
    fireEvent.change(name, { target: { value: "Alexandra" } });
    await act(async () => {
      stop = services.session.start();
      await waitFor(() => expect(services.session.getState().settings).not.toBeNull());
    });
    expect(name.value).toBe("Alexandra");
    // Another window saves a relay address: the field the person left alone follows it, theirs stays.
    await act(async () => {
      Object.assign(bridge.settings, { relayUrl: "wss://team.example", displayName: "Someone else" });
      bridge.emit("settings-changed", { ...bridge.settings });
    });
    expect(url.value).toBe("wss://team.example");
    expect(name.value).toBe("Alexandra");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save settings" }));
    await waitFor(() => expect(bridge.settings.displayName).toBe("Alexandra"));
    expect(name.value).toBe("Alexandra");
    stop();
  });

  it("says a stored token will be forgotten when another relay address is typed without one", async () => {
    const { dialog } = await renderDialog(undefined, (bridge) => Object.assign(bridge.settings, { relayUrl: "wss://team.example", relayTokenSet: true }));
    const token = within(dialog).getByLabelText("Relay token");
    const description = () => document.getElementById(token.getAttribute("aria-describedby") ?? "")?.textContent;
    expect(description()).toBe("Stored on this device only; it is never shown again.");
    fireEvent.change(within(dialog).getByLabelText("Relay URL"), { target: { value: "wss://other.example" } });
    expect(description()).toMatch(/belongs to the old relay address and will be forgotten/);
    fireEvent.change(token, { target: { value: "new-token" } });
    expect(description()).toBe("Stored on this device only; it is never shown again.");
  });

  it("warns while an unencrypted address to another computer is typed, in the field's description", async () => {
    const { dialog } = await renderDialog();
    const url = within(dialog).getByLabelText("Relay URL");
    const description = () => document.getElementById(url.getAttribute("aria-describedby") ?? "")?.textContent;
    expect(description()).toBe("Leave empty to keep everything on this device.");
    fireEvent.change(url, { target: { value: "ws://relay.example.com" } });
    expect(description()).toBe(UNENCRYPTED_RELAY_WARNING);
    fireEvent.change(url, { target: { value: "wss://relay.example.com" } });
    expect(description()).toBe("Leave empty to keep everything on this device.");
  });

  it("sends the token once, never shows it, and says a token is stored", async () => {
    const { bridge, dialog } = await renderDialog();
    const token = within(dialog).getByLabelText("Relay token") as HTMLInputElement;
    expect(token.type).toBe("password");
    fireEvent.change(within(dialog).getByLabelText("Relay URL"), { target: { value: "ws://127.0.0.1:47620" } });
    fireEvent.change(token, { target: { value: "s3cret" } });
    fireEvent.change(within(dialog).getByLabelText("Display name"), { target: { value: "Ada L." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save settings" }));
    // The copy buttons' live regions are statuses too (empty until a copy).
    await waitFor(() => expect(within(dialog).getByText("Settings saved. Joining the team…").getAttribute("role")).toBe("status"));
    const update = bridge.calls.find((c) => c.method === "updateSettings");
    expect(update?.args).toEqual([{ displayName: "Ada L.", relayUrl: "ws://127.0.0.1:47620", relayToken: "s3cret" }]);
    expect(token.value).toBe("");
    expect(token.placeholder).toMatch(/A token is stored/);
    expect(dialog.innerHTML).not.toContain("s3cret");
  });

  it("follows joining the saved relay: a refused token is said as a refusal (an alert), not as 'Settings saved.'", async () => {
    const { services, dialog } = await renderDialog();
    fireEvent.change(within(dialog).getByLabelText("Relay URL"), { target: { value: "ws://127.0.0.1:47620" } });
    fireEvent.change(within(dialog).getByLabelText("Relay token"), { target: { value: "wrongtoken" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save settings" }));
    await waitFor(() => expect(within(dialog).getByText("Settings saved. Joining the team…")).toBeTruthy());
    const refused = "The relay refused the token: it is wrong or was revoked.";
    act(() =>
      services.connection.setState({
        sync: { state: "unauthorized", relayUrl: "ws://127.0.0.1:47620", pendingChanges: 0, lastError: { code: "unauthorized", message: refused } },
      }),
    );
    expect(within(dialog).getByRole("alert").textContent).toBe(`Saved, but the relay did not let this device in: ${refused}`);
    expect(within(dialog).queryByText(/^Settings saved/)).toBeNull();
    act(() => services.connection.setState({ sync: { state: "connected", relayUrl: "ws://127.0.0.1:47620", pendingChanges: 0, lastError: null } }));
    expect(within(dialog).getByText("Settings saved. Connected to the team relay.")).toBeTruthy();
  });

  it("says a refusal in its own words, and drops it once a field is edited (the browser's URL check does not pre-empt it)", async () => {
    const { bridge, dialog } = await renderDialog();
    const url = within(dialog).getByLabelText("Relay URL") as HTMLInputElement;
    expect(url.type).toBe("text");
    bridge.failNext("updateSettings", new ChopinError("invalid-input", "“relay.example.com” is not an address."));
    fireEvent.change(url, { target: { value: "relay.example.com" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save settings" }));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toContain("is not an address"));
    fireEvent.change(url, { target: { value: "wss://relay.example.com" } });
    expect(within(dialog).queryByRole("alert")).toBeNull();
    const name = within(dialog).getByLabelText("Display name") as HTMLInputElement;
    expect(name.maxLength).toBe(-1);
  });

  it("shows the MCP commands with copy buttons", async () => {
    const { dialog } = await renderDialog();
    await waitFor(() => within(dialog).getByText("claude mcp add chopin"));
    for (const agent of ["Copilot CLI", "Claude Code", "Codex"]) {
      expect(within(dialog).getByRole("button", { name: `Copy ${agent} command` })).toBeTruthy();
    }
  });

  it("says when the MCP port changed since the last launch, and only then", async () => {
    const moved = await renderDialog(47610);
    await waitFor(() => within(moved.dialog).getByText("claude mcp add chopin"));
    expect(within(moved.dialog).getByRole("alert").textContent).toMatch(/port 47610, used last time, was taken/);
    cleanup();
    const same = await renderDialog();
    await waitFor(() => within(same.dialog).getByText("claude mcp add chopin"));
    expect(within(same.dialog).queryByRole("alert")).toBeNull();
  });
});

describe("a relay address without a token", () => {
  it("is saved, and the answer says nothing connects until the token is added", async () => {
    const { dialog } = await renderDialog();
    fireEvent.change(within(dialog).getByLabelText("Relay URL"), { target: { value: "ws://127.0.0.1:1" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save settings" }));
    await waitFor(() => expect(within(dialog).getByRole("alert").textContent).toBe(RELAY_WITHOUT_TOKEN));
  });
});
