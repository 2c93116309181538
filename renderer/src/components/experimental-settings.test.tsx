// @vitest-environment jsdom
/**
 * The Experimental part of Settings against the window's test double (issue #27): agent chat off at first; the switch
 * saves at once and says what happened; a refusal leaves it as the core has it and says why; a run started with the
 * command line's flag says so.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { Repo } from "@automerge/automerge-repo";
import { ChopinError } from "../../../shared/errors.js";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge, type MemoryBridge } from "../test/memory-bridge.js";
import { until } from "../test/until.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { ExperimentalSettingsSection } from "./ExperimentalSettingsSection.js";

afterEach(() => {
  cleanup();
  stopTestReplicas();
});

async function renderSection(prepare: (bridge: MemoryBridge) => void = () => {}) {
  const bridge = createMemoryBridge();
  prepare(bridge);
  const services = createAppServices(bridge, testReplica(new Repo({}), bridge.api));
  render(
    <AppServicesContext.Provider value={services}>
      <ExperimentalSettingsSection />
    </AppServicesContext.Provider>,
  );
  await until(() => screen.queryByRole("checkbox", { name: "Agent chat" }) !== null, "the switch");
  return { bridge, section: screen.getByRole("region", { name: "Experimental" }), toggle: screen.getByRole("checkbox", { name: "Agent chat" }) as HTMLInputElement };
}

describe("Settings → Experimental", () => {
  it("has agent chat off at first, and turns it on and off at once, saying so", async () => {
    const { bridge, section, toggle } = await renderSection();
    expect(toggle.checked).toBe(false);
    expect(document.getElementById(toggle.getAttribute("aria-describedby")!)?.textContent).toMatch(/Adds Agents to the sidebar/);
    fireEvent.click(toggle);
    await until(() => within(section).getByRole("status").textContent === "Agent chat is on: Agents is in the sidebar.", "saved on");
    expect(toggle.checked).toBe(true);
    expect(await bridge.api.getExperimentalSettings()).toMatchObject({ enableAgentChat: true, agentChatOn: true });
    fireEvent.click(toggle);
    await until(() => within(section).getByRole("status").textContent === "Agent chat is off. Your agent profiles are kept.", "saved off");
    expect(toggle.checked).toBe(false);
    expect(within(section).queryByRole("note")).toBeNull();
  });

  it("says a refused save and leaves the switch as the core has it", async () => {
    const { bridge, section, toggle } = await renderSection();
    bridge.failNext("updateExperimentalSettings", new ChopinError("storage-failure", "Chopin cannot write to its database because the disk is full: free some space. Nothing was changed: try again once Chopin can write again."));
    fireEvent.click(toggle);
    await until(() => within(section).queryByRole("alert") !== null, "the refusal");
    expect(within(section).getByRole("alert").textContent).toMatch(/disk is full/);
    expect(toggle.checked).toBe(false);
  });

  it("says when this run has agent chat on from the command line, whatever the switch says", async () => {
    const { section, toggle } = await renderSection((bridge) => bridge.agents.setCommandLine(true));
    expect(toggle.checked).toBe(false);
    expect(within(section).getByRole("note").textContent).toMatch(/started with --enable-agent-chat \(or CHOPIN_ENABLE_AGENT_CHAT=1\): agent chat stays on/);
  });

  it("follows a change made in another window", async () => {
    const { bridge, toggle } = await renderSection();
    await bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    await until(() => toggle.checked, "the switch follows");
  });
});
