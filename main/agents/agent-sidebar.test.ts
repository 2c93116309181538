/**
 * The sidebar's Agents on one app (issue #27), over real profiles, stars and visits: while a relay's team is not known
 * yet it is empty and writes are refused 'relay-unavailable'; the person is asked at every call (signing in makes
 * another person, with stars and visits of their own); a star arriving from the person's other device is said;
 * nothing is said while agent chat is off.
 */
import type { DocHandle } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentSidebar } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import type { AgentStarsDocument } from "../../shared/schema/agent-stars.js";
import { AgentChatVisits } from "../store/agent-chat-visits.js";
import { openLocalDb } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { profilesReplica } from "./agent-profiles-test-support.js";
import { AgentSidebarService } from "./agent-sidebar.js";
import { agentStarsIdOf } from "../../shared/node/agent-stars-identity.js";
import { AgentStars } from "./agent-stars.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function app(deviceId = "device-a") {
  const replica = profilesReplica(deviceId);
  const dir = tempDir("chopin-agent-sidebar-");
  const db = openLocalDb(dir.path);
  cleanups.push(() => dir.remove(), () => db.close());
  const person = { key: `device:${deviceId}` };
  const said: AgentSidebar[] = [];
  const holds = (id: string) => [...replica.storage.data.keys()].some((key) => key.startsWith(`${id}/`));
  const stars = new AgentStars({ repo: replica.repo, holds, changed: () => sidebar.mayHaveChanged() });
  const sidebar: AgentSidebarService = new AgentSidebarService({
    profiles: replica.profiles,
    stars,
    visits: new AgentChatVisits(db),
    personKey: () => person.key,
    chatOn: () => replica.chat.on,
    changed: (view) => void said.push(view),
  });
  return { ...replica, sidebar, stars, person, said };
}

const names = (view: AgentSidebar) => [...view.starred.map((a) => `*${a.name}`), ...view.recent.map((a) => a.name)];

describe("the sidebar's Agents on one app", () => {
  it("are empty while the relay's team is not known, refusing writes, and apply once it is", async () => {
    const a = app();
    a.profiles.setRelay("ws://relay.test");
    expect(await a.sidebar.read()).toEqual({ starred: [], recent: [] });
    await expect(a.sidebar.setStarred("planner", true)).rejects.toMatchObject({ code: "relay-unavailable" });
    await expect(a.sidebar.recordVisit("planner")).rejects.toMatchObject({ code: "relay-unavailable" });
    a.profiles.setTeam("team-index-1");
    expect(names(await a.sidebar.setStarred("planner", true))).toEqual(["*Planner"]);
    expect(a.stars.isTeamDocument(agentStarsIdOf({ scope: { kind: "team", teamIndexId: "team-index-1" }, person: "device:device-a" }))).toBe(true);
    // Back to no relay: this device's scope, whose stars are its own.
    a.profiles.setRelay(null);
    expect(await a.sidebar.read()).toEqual({ starred: [], recent: [] });
  });

  it("follow the person: signing in shows that person's stars and visits, not the device's", async () => {
    const a = app();
    const scout = await a.profiles.create({ name: "Scout" });
    await a.sidebar.setStarred(scout.id, true);
    await a.sidebar.recordVisit("planner");
    a.person.key = "github:alice";
    expect(await a.sidebar.read()).toEqual({ starred: [], recent: [] });
    await a.sidebar.recordVisit(scout.id);
    expect(names(await a.sidebar.read())).toEqual(["Scout"]);
    a.person.key = "device:device-a";
    expect(names(await a.sidebar.read())).toEqual(["*Scout", "Planner"]);
  });

  it("say a star that arrives from the person's other device, and say nothing while agent chat is off", async () => {
    const laptop = app("device-a");
    const desktop = app("device-b");
    for (const d of [laptop, desktop]) {
      d.profiles.setRelay("ws://relay.test");
      d.profiles.setTeam("team-index-1");
      d.person.key = "github:alice";
    }
    await laptop.sidebar.read();
    await desktop.sidebar.setStarred("planner", true);
    const owner = { scope: { kind: "team" as const, teamIndexId: "team-index-1" }, person: "github:alice" };
    const handle = (d: ReturnType<typeof app>) => d.repo.handles[agentStarsIdOf(owner)] as DocHandle<AgentStarsDocument>;
    handle(laptop).merge(handle(desktop));
    await waitFor(() => laptop.said.some((view) => names(view).join() === "*Planner"), "the laptop says the desktop's star");

    laptop.chat.on = false;
    const before = laptop.said.length;
    await expect(laptop.sidebar.read()).rejects.toMatchObject({ code: "agent-chat-disabled" });
    await desktop.sidebar.setStarred("planner", false);
    handle(laptop).merge(handle(desktop));
    laptop.sidebar.mayHaveChanged();
    laptop.chat.on = true;
    expect(names(await laptop.sidebar.read())).toEqual([]);
    expect(laptop.said.length).toBe(before);
  });
});
