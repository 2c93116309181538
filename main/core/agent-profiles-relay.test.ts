/**
 * Agent profiles between real app cores through a real relay on 127.0.0.1 (issue #27): each member's app opens the
 * team's profiles on its own (the same genesis), sees the other's new profile and edits, hears them as
 * "agents-changed", merges edits made at once, and never sends this device's own profiles (made before the relay was
 * configured) to the relay.
 */
import { describe, expect, it } from "vitest";
import type { AgentList, ChopinApi } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { agentProfilesIdOf } from "../agents/agent-profiles-identity.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import type { AppCore } from "./types.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(dataDir: string, relay?: { url: string; token: string }): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, relayUrl: relay?.url, relayToken: relay?.token, enableAgentChat: true });
  cleanups.push(() => c.close());
  return c;
}

const agent = async (api: ChopinApi, name: string) => (await api.listAgents()).agents.find((a) => a.name === name);

describe("a team's agent profiles between two people", () => {
  it("carry each member's new profiles and edits to the other, said as agents-changed, merged when made at once", async () => {
    const relay = await startRelay({ dataDir: dir("chopin-agents-relay-") });
    cleanups.push(() => relay.close());
    const alice = await core(dir("chopin-agents-alice-"), { url: relay.url, token: relay.users.add("alice").token });
    const bob = await core(dir("chopin-agents-bob-"), { url: relay.url, token: relay.users.add("bob").token });
    await waitFor(async () => !(await alice.api.listAgents()).teamPending && !(await bob.api.listAgents()).teamPending, "both learnt the team");

    const heardByBob: AgentList[] = [];
    bob.events.on("agents-changed", (list) => void heardByBob.push(list));
    const scout = await alice.api.createAgent({ name: "Scout", instructions: "Find gaps.", tools: ["read_plan"] });
    await waitFor(async () => (await agent(bob.api, "Scout"))?.instructions === "Find gaps.", "bob sees alice's new agent");
    expect(heardByBob.some((list) => list.scope === "team" && list.agents.some((a) => a.id === scout.id))).toBe(true);

    await bob.api.updateAgent(scout.id, { color: "orange" });
    await waitFor(async () => (await agent(alice.api, "Scout"))?.color === "orange", "alice sees bob's edit");

    // At once: Alice renames Scout, Bob rewrites its instructions and adds Builder; both land on both.
    await Promise.all([alice.api.updateAgent(scout.id, { name: "Scout II" }), bob.api.updateAgent(scout.id, { instructions: "Find every gap." }), bob.api.createAgent({ name: "Builder" })]);
    const settled = async (api: ChopinApi) => {
      const list = await api.listAgents();
      const s = list.agents.find((a) => a.id === scout.id);
      return list.agents.map((a) => a.name).join("|") === "Planner|Builder|Scout II" && s?.instructions === "Find every gap.";
    };
    await waitFor(async () => (await settled(alice.api)) && (await settled(bob.api)), "both replicas merged both edits");
    expect(await alice.api.listAgents()).toEqual(await bob.api.listAgents());
  });

  it("keep a device's own profiles, made before a relay was configured, off the relay and out of the team's list", async () => {
    const relay = await startRelay({ dataDir: dir("chopin-agents-private-relay-") });
    cleanups.push(() => relay.close());
    const dataDir = dir("chopin-agents-private-");
    const alone = await core(dataDir);
    await alone.api.createAgent({ name: "Private helper" });
    expect(await alone.api.listAgents()).toMatchObject({ scope: "device" });
    await alone.api.updateSettings({ relayUrl: relay.url, relayToken: relay.users.add("carol").token });
    await waitFor(async () => {
      const list = await alone.api.listAgents();
      return list.scope === "team" && !list.teamPending;
    }, "the team's profiles apply");
    expect((await alone.api.listAgents()).agents.map((a) => a.name)).toEqual(["Planner"]);
    const shared = await alone.api.createAgent({ name: "Team helper" });
    // The team's document reached the relay with the team's profile in it; the device's own document never did.
    const teamDocument = agentProfilesIdOf({ kind: "team", teamIndexId: relay.teamIndexDocumentId });
    await waitFor(async () => {
      const handle = relay.repo.handles[teamDocument];
      if (!handle?.isReady()) return false;
      return (handle.doc() as { profiles?: Record<string, unknown> }).profiles?.[shared.id] !== undefined;
    }, "the team's profile reached the relay");
    const deviceDocument = agentProfilesIdOf({ kind: "device", deviceId: (await alone.api.getIdentity()).peerId });
    expect(relay.repo.handles[deviceDocument]).toBeUndefined();
    // Back to no relay: this device's profiles again, as they were.
    await alone.api.updateSettings({ relayUrl: null });
    expect((await alone.api.listAgents()).agents.map((a) => a.name)).toEqual(["Planner", "Private helper"]);
  });
});

