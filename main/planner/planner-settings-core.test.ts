/**
 * The Planner's settings in a real app core (issue #26), with the real Copilot runtime and our fake OpenAI server: a
 * provider set in Settings (no command line, no GitHub sign-in) runs the Planner and survives a restart with its key;
 * a new model ends the session made with the old one; the Settings switch turned off releases the Planner and ends
 * its sessions, messages to it wait, and turned on again the waiting message is answered.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function startCore(dataDir: string): Promise<AppCore> {
  const core = await createAppCore({ dataDir, mcpPort: 0 });
  cleanups.push(() => core.close());
  return core;
}

async function setup(): Promise<{ core: AppCore; model: FakeOpenAI; id: DocumentId; dataDir: string }> {
  const model = await startFakeOpenAI({ models: ["fake-one", "fake-two", "fake"] });
  cleanups.push(() => model.close());
  const dir = tempDir("chopin-planner-settings-");
  cleanups.push(() => dir.remove());
  const core = await startCore(dir.path);
  await core.api.updateSettings({ displayName: "Ada" });
  const plan = await core.api.createDocument({ title: "Launch", markdown: "# Launch\n" });
  return { core, model, id: plan.id as DocumentId, dataDir: dir.path };
}

const answers = async (core: AppCore, id: DocumentId) =>
  (await core.api.readConversation(id)).entries.filter((e) => e.author.kind === "planner" && e.turn?.state !== "started").map((e) => e.text);

describe("the Planner's settings in the app", () => {
  it("runs on a provider set in Settings, keeps it across a restart, and starts a fresh session for a new model", { timeout: 120_000 }, async () => {
    const { core, model, id, dataDir } = await setup();
    // Nothing configured and not signed in: a message to the Planner is refused in words.
    await core.api.postMessage(id, { text: "@Planner hello?", to: "planner", clientRequestId: "before" });
    await waitFor(async () => (await core.api.getPlannerState(id)).refusal !== undefined, "the refusal shown", 30_000);
    expect((await core.api.getPlannerState(id)).refusal?.message).toMatch(/Sign in to GitHub/);
    await core.api.withdrawMessage(id, (await core.api.readConversation(id)).entries[0]!.id);

    await core.api.updatePlannerSettings({ provider: { type: "openai", baseUrl: model.url, model: "fake-one", apiKey: model.apiKey } });
    model.script({ text: "Hello from Settings." }, { text: "Still here." });
    await core.api.postMessage(id, { text: "@Planner hi", to: "planner", clientRequestId: "one" });
    await waitFor(async () => (await answers(core, id)).length === 1, "answered on the Settings provider", 60_000);
    expect(model.requests[0]!.body.model).toBe("fake-one");
    expect(core.planner.runtimeSessions()).toBe(1);

    // Another model: the session made for the old one ends; the next turn makes one for the new model.
    await core.api.updatePlannerSettings({ provider: { type: "openai", baseUrl: model.url, model: "fake-two" } });
    await waitFor(() => core.planner.runtimeSessions() === 0, "the old model's session ended", 30_000);
    await core.api.postMessage(id, { text: "@Planner again", to: "planner", clientRequestId: "two" });
    await waitFor(async () => (await answers(core, id)).length === 2, "answered on the new model", 60_000);
    expect(model.requests.at(-1)!.body.model).toBe("fake-two");

    await core.close();
    const again = await startCore(dataDir);
    expect(await again.api.getPlannerSettings()).toMatchObject({ provider: { model: "fake-two", keySet: true }, enabled: true });
    model.script({ text: "After the restart." });
    await again.api.postMessage(id, { text: "@Planner and now?", to: "planner", clientRequestId: "three" });
    await waitFor(async () => (await answers(again, id)).includes("After the restart."), "answered after the restart, with the stored key", 60_000);
  });

  it("turned off in Settings: releases the Planner and its sessions, lets messages wait; turned on: answers them", { timeout: 120_000 }, async () => {
    const { core, model, id } = await setup();
    await core.api.updatePlannerSettings({ provider: { type: "openai", baseUrl: model.url, model: "fake", apiKey: model.apiKey } });
    model.script({ text: "First." });
    await core.api.postMessage(id, { text: "@Planner one", to: "planner", clientRequestId: "one" });
    await waitFor(async () => (await answers(core, id)).length === 1, "answered", 60_000);
    expect(await core.api.getPlannerState(id)).toMatchObject({ state: "running-here", offHere: false });

    await core.api.updatePlannerSettings({ enabled: false });
    expect(await core.api.getPlannerState(id)).toMatchObject({ state: "unowned", ownedHere: false, offHere: true });
    expect(core.planner.runtimeSessions()).toBe(0);
    await core.api.postMessage(id, { text: "@Planner two", to: "planner", clientRequestId: "two" });
    await waitFor(async () => (await core.api.getPlannerState(id)).refusal?.code === "not-configured", "refused while off", 30_000);
    expect(model.requests.length).toBe(1);

    model.script({ text: "Second, once back on." });
    await core.api.updatePlannerSettings({ enabled: true });
    await waitFor(async () => (await answers(core, id)).length === 2, "the waiting message answered once the Planner is on", 60_000);
    expect(await core.api.getPlannerState(id)).toMatchObject({ state: "running-here", ownershipGeneration: 2, offHere: false });
  });
});
