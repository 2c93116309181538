/**
 * A person's stars (issue #27) on two devices' replicas of their stars document, each begun on its own from the shared
 * genesis, then merged as the relay would: stars of different agents made at once both stay; a star and an unstar of
 * one agent made at once end as a star on both; the bound at its edge, and stale stars dropped only past it; a
 * teammate's stars (another person's document) are never this person's; a document held in storage is opened, not
 * begun again.
 */
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { MAX_AGENT_STARS } from "../../shared/limits.js";
import type { AgentStarsDocument } from "../../shared/schema/agent-stars.js";
import { MemoryStorage } from "../documents/test-fixture.js";
import { agentStarsGenesis, agentStarsIdOf, type StarsOwner } from "../../shared/node/agent-stars-identity.js";
import { AgentStars } from "./agent-stars.js";

const team = { kind: "team" as const, teamIndexId: "team-index-1" };
const alice: StarsOwner = { scope: team, person: "github:alice" };
const agent = (n: number) => n.toString(16).padStart(32, "0");
const listed = (count: number) => new Set(Array.from({ length: count }, (_, i) => agent(i + 1)));

function device(storage = new MemoryStorage()) {
  const repo = new Repo({ storage, network: [] });
  let changes = 0;
  const stars = new AgentStars({ repo, holds: (id) => [...storage.data.keys()].some((key) => key.startsWith(`${id}/`)), changed: () => void changes++ });
  return { stars, repo, storage, changes: () => changes, handle: (owner: StarsOwner) => repo.handles[agentStarsIdOf(owner)] as DocHandle<AgentStarsDocument> };
}

async function merge(a: ReturnType<typeof device>, b: ReturnType<typeof device>, owner: StarsOwner): Promise<void> {
  await Promise.all([a.stars.read(owner), b.stars.read(owner)]);
  a.handle(owner).merge(b.handle(owner));
  b.handle(owner).merge(a.handle(owner));
}

const ids = async (d: ReturnType<typeof device>, owner = alice) => [...(await d.stars.read(owner)).ids].sort();

describe("a person's stars on two of their devices", () => {
  it("keep stars of different agents made at once on both, and said each change", async () => {
    const laptop = device();
    const desktop = device();
    await laptop.stars.set(alice, agent(1), true, listed(3));
    await desktop.stars.set(alice, agent(2), true, listed(3));
    expect(laptop.changes()).toBeGreaterThan(0);
    await merge(laptop, desktop, alice);
    expect(await ids(laptop)).toEqual([agent(1), agent(2)]);
    expect(await ids(desktop)).toEqual([agent(1), agent(2)]);
  });

  it("end a star and an unstar of one agent made at once as a star on both", async () => {
    const laptop = device();
    const desktop = device();
    await laptop.stars.set(alice, agent(1), true, listed(3));
    await merge(laptop, desktop, alice);
    await laptop.stars.set(alice, agent(1), false, listed(3));
    await desktop.stars.set(alice, agent(1), false, listed(3));
    await desktop.stars.set(alice, agent(1), true, listed(3));
    await merge(laptop, desktop, alice);
    expect(await ids(laptop)).toEqual([agent(1)]);
    expect(await ids(desktop)).toEqual([agent(1)]);
    // Unstarred where both stars were seen: gone on both.
    await laptop.stars.set(alice, agent(1), false, listed(3));
    await merge(laptop, desktop, alice);
    expect(await ids(desktop)).toEqual([]);
  });

  it("write nothing for a star that is already there or an unstar that is not", async () => {
    const laptop = device();
    await laptop.stars.set(alice, agent(1), true, listed(3));
    const heads = laptop.handle(alice).heads();
    await laptop.stars.set(alice, agent(1), true, listed(3));
    await laptop.stars.set(alice, agent(2), false, listed(3));
    expect(laptop.handle(alice).heads()).toEqual(heads);
  });

  it(`take ${MAX_AGENT_STARS} stars of listed agents, refuse the next, and drop stars of removed agents only past the bound`, async () => {
    const laptop = device();
    const all = listed(MAX_AGENT_STARS + 2);
    for (let i = 1; i <= MAX_AGENT_STARS; i++) await laptop.stars.set(alice, agent(i), true, all);
    await expect(laptop.stars.set(alice, agent(MAX_AGENT_STARS + 1), true, all)).rejects.toMatchObject({ code: "too-large" });
    expect((await laptop.stars.read(alice)).ids.size).toBe(MAX_AGENT_STARS);
    // Agents 1 and 2 were removed: their stars no longer count, and go in the change that stars another past the bound.
    const fewer = new Set([...all].filter((id) => id !== agent(1) && id !== agent(2)));
    await laptop.stars.set(alice, agent(MAX_AGENT_STARS + 1), true, fewer);
    const after = await laptop.stars.read(alice);
    expect(after.keys).toBe(MAX_AGENT_STARS - 1);
    expect(after.ids.has(agent(1))).toBe(false);
    expect(after.ids.has(agent(MAX_AGENT_STARS + 1))).toBe(true);
  });

  it("keep a star of an agent not listed here below the bound (its profile may not have arrived yet)", async () => {
    const laptop = device();
    await laptop.stars.set(alice, agent(1), true, listed(3));
    await laptop.stars.set(alice, agent(2), true, new Set([agent(2)]));
    expect(await ids(laptop)).toEqual([agent(1), agent(2)]);
  });

  it("keep a teammate's and another scope's stars in other documents, and open a held document instead of beginning it", async () => {
    const storage = new MemoryStorage();
    const laptop = device(storage);
    const bob: StarsOwner = { scope: team, person: "github:bob" };
    const alone: StarsOwner = { scope: { kind: "device", deviceId: "device-a" }, person: "github:alice" };
    await laptop.stars.set(alice, agent(1), true, listed(3));
    await laptop.stars.set(bob, agent(2), true, listed(3));
    await laptop.stars.set(alone, agent(3), true, listed(3));
    expect(new Set([agentStarsIdOf(alice), agentStarsIdOf(bob), agentStarsIdOf(alone)]).size).toBe(3);
    expect(await ids(laptop, alice)).toEqual([agent(1)]);
    expect(await ids(laptop, bob)).toEqual([agent(2)]);
    expect(await ids(laptop, alone)).toEqual([agent(3)]);
    expect(laptop.stars.isTeamDocument(agentStarsIdOf(alone))).toBe(false);
    await laptop.stars.read(alice);
    expect(laptop.stars.isTeamDocument(agentStarsIdOf(alice))).toBe(true);
    expect(laptop.stars.isTeamDocument(agentStarsIdOf(bob))).toBe(false);

    await laptop.repo.flush();
    const again = device(storage);
    expect(await ids(again, alice)).toEqual([agent(1)]);
  });

  it("read only keys that are agent ids set to true (another app may have written anything)", async () => {
    const laptop = device();
    await laptop.stars.read(alice);
    laptop.handle(alice).change((doc) => {
      (doc.stars as Record<string, unknown>)["Not an id"] = true;
      (doc.stars as Record<string, unknown>)[agent(4)] = "yes";
      doc.stars[agent(5)] = true;
    });
    expect(await ids(laptop)).toEqual([agent(5)]);
  });
});

describe("the stars document's identity", () => {
  it("begins from the same bytes on every device and differs per person, scope and scope kind", () => {
    expect(agentStarsGenesis(alice)).toEqual(agentStarsGenesis({ scope: { ...team }, person: "github:alice" }));
    const others: StarsOwner[] = [
      { scope: team, person: "github:bob" },
      { scope: { kind: "team", teamIndexId: "team-index-2" }, person: "github:alice" },
      { scope: { kind: "device", deviceId: "team-index-1" }, person: "github:alice" },
    ];
    for (const other of others) expect(agentStarsIdOf(other)).not.toBe(agentStarsIdOf(alice));
    expect(() => agentStarsIdOf({ scope: team, person: "github:alice\ndevice:x" })).toThrow(/one line/);
  });
});
