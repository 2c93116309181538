/**
 * The sidebar's Agents between real app cores through a real relay (issue #27), each signed in to the fake GitHub:
 * Alice's star on her laptop reaches her desktop (said as "agent-sidebar-changed") and never shows as Bob's; Bob's
 * star never shows as Alice's; stars and unstars the two devices make at once all land on both; a visit is this
 * device's alone.
 */
import { describe, expect, it } from "vitest";
import type { AgentSidebar, ChopinApi } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { startRelay } from "../../sync-relay/server.js";
import { agentStarsIdOf } from "../../shared/node/agent-stars-identity.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import type { AppCore, AppCoreOptions } from "./types.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(name: string, options: Partial<AppCoreOptions>): Promise<AppCore> {
  const c = await createAppCore({ dataDir: dir(`chopin-sidebar-${name}-`), mcpPort: 0, enableAgentChat: true, planner: { off: true }, ...options });
  cleanups.push(() => c.close());
  await c.gitHubSignInSettled();
  await waitFor(async () => !(await c.api.listAgents()).teamPending, `${name} learnt the team`);
  return c;
}

const starredOf = async (api: ChopinApi) => (await api.getAgentSidebar()).starred.map((a) => a.name);

describe("the sidebar's Agents through a relay", () => {
  it("carry a person's stars to their other device, never to a teammate's sidebar; visits stay on their device", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relay = await startRelay({ dataDir: dir("chopin-sidebar-relay-") });
    cleanups.push(() => relay.close());
    const aliceToken = relay.users.add("alice").token;
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    const laptop = await core("alice-laptop", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    const desktop = await core("alice-desktop", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    const bob = await core("bob", { relayUrl: relay.url, relayToken: relay.users.add("bob").token, ...signedIn("bob") });

    const scout = await laptop.api.createAgent({ name: "Scout" });
    const builder = await laptop.api.createAgent({ name: "Builder" });
    const critic = await laptop.api.createAgent({ name: "Critic" });
    const everyone = [laptop, desktop, bob];
    await waitFor(async () => {
      for (const c of everyone) if ((await c.api.listAgents()).agents.length !== 4) return false;
      return true;
    }, "everyone sees the agents");
    for (const c of everyone) expect(await c.api.getAgentSidebar()).toEqual({ starred: [], recent: [] });

    // Alice stars Scout on her laptop: her desktop hears it; Bob's sidebar never shows it.
    const heardOnDesktop: AgentSidebar[] = [];
    desktop.events.on("agent-sidebar-changed", (view) => void heardOnDesktop.push(view));
    await laptop.api.setAgentStarred(scout.id, true);
    await waitFor(async () => (await starredOf(desktop.api)).join() === "Scout", "the desktop shows the laptop's star", 60_000);
    await waitFor(() => heardOnDesktop.some((view) => view.starred.some((a) => a.id === scout.id)), "the desktop said it");
    // Bob stars Builder: Alice's sidebars never show it, and Alice's star never shows on Bob's.
    await bob.api.setAgentStarred(builder.id, true);
    const aliceStars = agentStarsIdOf({ scope: { kind: "team", teamIndexId: relay.teamIndexDocumentId }, person: "github:alice" });
    const bobStars = agentStarsIdOf({ scope: { kind: "team", teamIndexId: relay.teamIndexDocumentId }, person: "github:bob" });
    const relayHolds = (id: string) => relay.repo.handles[id as never]?.isReady() === true;
    await waitFor(() => relayHolds(aliceStars) && relayHolds(bobStars), "the relay holds both people's stars");
    expect(await starredOf(bob.api)).toEqual(["Builder"]);
    expect(await starredOf(laptop.api)).toEqual(["Scout"]);
    expect(await starredOf(desktop.api)).toEqual(["Scout"]);

    // At once on both devices: the laptop stars Critic and unstars Scout, the desktop stars Builder; all three land on
    // both (a star and an unstar of one agent at once: main/agents/agent-stars.test.ts).
    await Promise.all([laptop.api.setAgentStarred(critic.id, true), desktop.api.setAgentStarred(builder.id, true), laptop.api.setAgentStarred(scout.id, false)]);
    await waitFor(async () => (await starredOf(laptop.api)).join() === "Builder,Critic" && (await starredOf(desktop.api)).join() === "Builder,Critic", "both devices merged both", 60_000);
    expect(await starredOf(bob.api)).toEqual(["Builder"]);

    // A visit is this device's: the laptop's recents show it, the desktop's do not.
    expect((await laptop.api.recordAgentChatVisit(scout.id)).recent.map((a) => a.name)).toEqual(["Scout"]);
    expect((await desktop.api.getAgentSidebar()).recent).toEqual([]);
  });
});
