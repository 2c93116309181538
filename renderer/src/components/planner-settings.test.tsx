// @vitest-environment jsdom
/**
 * The Planner part of Settings against the window's test double (issue #26): Copilot and on at first; a provider saved
 * with its key, which is never shown and is cleared from the field; a refusal that names the field and keeps what was
 * typed; a new address asks for its own key; the switch; and what the command line set for this run, said.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { Repo } from "@automerge/automerge-repo";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { until } from "../test/until.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { PlannerSettingsSection } from "./PlannerSettingsSection.js";

afterEach(() => {
  cleanup();
  stopTestReplicas();
});

async function renderSection(prepare: (bridge: ReturnType<typeof createMemoryBridge>) => void = () => {}) {
  const bridge = createMemoryBridge();
  prepare(bridge);
  const services = createAppServices(bridge, testReplica(new Repo({}), bridge.api));
  render(
    <AppServicesContext.Provider value={services}>
      <PlannerSettingsSection />
    </AppServicesContext.Provider>,
  );
  await until(() => screen.queryByRole("form", { name: "Planner" }) !== null, "the Planner's settings");
  return { bridge, form: screen.getByRole("form", { name: "Planner" }) };
}

const describedBy = (input: HTMLElement) => document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent;

describe("the Planner's settings", () => {
  it("saves a provider with its key, never shows the key, and keeps it for the same address", async () => {
    const { bridge, form } = await renderSection();
    const provider = within(form).getByLabelText("Model provider") as HTMLSelectElement;
    expect(provider.value).toBe("copilot");
    expect((within(form).getByLabelText("Run the Planner on this app") as HTMLInputElement).checked).toBe(true);
    expect(within(form).queryByLabelText("API key")).toBeNull();
    fireEvent.change(provider, { target: { value: "openai" } });
    fireEvent.change(within(form).getByLabelText("Address"), { target: { value: "https://models.example/v1" } });
    fireEvent.change(within(form).getByLabelText("Model"), { target: { value: "gpt-x" } });
    // No key yet: the core refuses, naming the field, and what was typed stays.
    fireEvent.click(within(form).getByRole("button", { name: "Save Planner settings" }));
    await until(() => within(form).queryByRole("alert") !== null, "the refusal");
    expect(within(form).getByRole("alert").textContent).toMatch(/^API key: enter the key for this address/);
    expect((within(form).getByLabelText("Model") as HTMLInputElement).value).toBe("gpt-x");

    const key = within(form).getByLabelText("API key") as HTMLInputElement;
    expect(key.type).toBe("password");
    fireEvent.change(key, { target: { value: "sk-SECRET" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save Planner settings" }));
    await until(() => within(form).queryByText("Planner settings saved.") !== null, "saved");
    expect(key.value).toBe("");
    expect(key.placeholder).toBe("A key is stored — type to replace it");
    expect(document.body.innerHTML).not.toContain("sk-SECRET");
    expect(await bridge.api.getPlannerSettings()).toMatchObject({ provider: { type: "openai", model: "gpt-x", keySet: true } });

    // Another address: the stored key is not for it, and the hint says so.
    fireEvent.change(within(form).getByLabelText("Address"), { target: { value: "https://elsewhere.example/v1" } });
    expect(describedBy(key)).toMatch(/belongs to the old address/);
    expect(key.placeholder).toBe("Paste the provider's API key");
  });

  it("turns the Planner off here, and back to Copilot", async () => {
    const { bridge, form } = await renderSection();
    await bridge.api.updatePlannerSettings({ provider: { type: "anthropic", baseUrl: "https://a.example", model: "c", apiKey: "k" } });
    fireEvent.click(within(form).getByLabelText("Run the Planner on this app"));
    fireEvent.change(within(form).getByLabelText("Model provider"), { target: { value: "copilot" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save Planner settings" }));
    await until(() => within(form).queryByText("Planner settings saved.") !== null, "saved");
    expect(await bridge.api.getPlannerSettings()).toMatchObject({ enabled: false, provider: null });
  });

  it("says what the command line set for this run", async () => {
    const { form } = await renderSection((bridge) => {
      const original = bridge.api.getPlannerSettings.bind(bridge.api);
      bridge.api.getPlannerSettings = async () => ({ ...(await original()), offByEnvironment: true, commandLineProvider: { type: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "fake" } });
    });
    expect(within(form).getByText(/started with/).textContent).toMatch(/AGENT=off: the Planner stays off here/);
    expect(within(form).getByText(/provider given on the command line/).textContent).toMatch(/OpenAI-compatible at http:\/\/127\.0\.0\.1:9\/v1, model fake/);
  });
});
