/**
 * A shared plan whose stored copy on this device is damaged can be fetched again from the team instead of removed:
 * removing took it off the team's list for everyone, though the relay held a good copy. Real relay, real cores; the
 * damage is random bytes over the plan's chunks while the core is down, as the storage audit made it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { startRelay } from "../../sync-relay/server.js";
import { setUpRelay, tearDownRelay, tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import { chunksOf, damagedPlanFolder, garbleChunks, rows } from "./damaged-plan-fixture.js";
import type { AppCore } from "./types.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function core(dataDir: string, relay?: { url: string; token: string }): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, ...(relay ? { relayUrl: relay.url, relayToken: relay.token } : {}) });
  cleanups.push(() => c.close());
  return c;
}

describe("getting the team's copy of a damaged shared plan", () => {
  it("sets the unreadable bytes aside, fetches the relay's copy, and keeps the plan on everyone's list", { timeout: 120_000 }, async () => {
    const { relay, tokens, ...fixture } = await setUpRelay("chopin-refetch-relay-");
    cleanups.push(() => tearDownRelay({ relay, tokens, ...fixture }, []));
    const [dirA, dirB] = [tempDir("chopin-refetch-a-"), tempDir("chopin-refetch-b-")];
    cleanups.push(() => dirA.remove(), () => dirB.remove());
    const alice = { url: relay.url, token: tokens.alice };
    const bob = { url: relay.url, token: tokens.bob };

    const a = await core(dirA.path, alice);
    let b = await core(dirB.path, bob);
    const plan = await a.api.createDocument({ title: "Team plan", markdown: "# Team plan\n\nagreed words" });
    const mine = await b.api.createDocument({ title: "Mine", markdown: "private words", shared: false });
    await waitFor(() => chunksOf(dirB.path, plan.id).length > 0, "B holds the team's plan", 60_000);
    await b.close();
    const garbage = garbleChunks(dirB.path, plan.id);
    garbleChunks(dirB.path, mine.id);

    b = await core(dirB.path, bob);
    await expect(b.api.getDocument(plan.id)).rejects.toMatchObject({ code: "storage-failure", details: { damaged: true } });
    await expect(b.api.getDocument(mine.id)).rejects.toMatchObject({ code: "storage-failure" });
    // A private plan has no other copy anywhere: refused, and nothing changes.
    await expect(b.api.restoreDamagedFromTeam(mine.id)).rejects.toMatchObject({ code: "not-shared" });

    const fetched = await b.api.restoreDamagedFromTeam(plan.id);
    expect(fetched).toMatchObject({ id: plan.id, title: "Team plan", shared: true });
    expect((await b.api.getDocument(plan.id)).title).toBe("Team plan");
    // Still on both lists, shared; the garbage kept aside, the good copy stored in its place.
    for (const c of [a, b]) expect((await c.api.listDocuments({})).find((d) => d.id === plan.id)).toMatchObject({ shared: true });
    const kept = rows<{ document_id: string; data: Buffer }>(dirB.path, "SELECT document_id, data FROM damaged_chunks ORDER BY seq");
    expect(kept.filter((r) => r.document_id === plan.id).map((r) => r.data)).toEqual(garbage.map((g) => g.data));
    await waitFor(() => chunksOf(dirB.path, plan.id).length > 0, "B stores the team's copy");
    // A teammate's next edit reaches the restored copy.
    await a.api.renameDocument(plan.id, "Team plan, revised");
    await waitFor(async () => (await b.api.getDocument(plan.id)).title === "Team plan, revised", "the edit arrives");
    await expect(b.api.restoreDamagedFromTeam(plan.id)).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("answers 'relay-unavailable' while the relay is down, keeps the plan listed, and the plan opens once the relay is back", { timeout: 120_000 }, async () => {
    const fixture = await setUpRelay("chopin-refetch-down-relay-");
    let relayOpen = true;
    cleanups.push(() => (relayOpen ? tearDownRelay(fixture, []) : fixture.dir.remove()));
    const { url } = fixture.relay;
    const [dirA, dirB] = [tempDir("chopin-refetch-down-a-"), tempDir("chopin-refetch-down-b-")];
    cleanups.push(() => dirA.remove(), () => dirB.remove());
    const bob = { url, token: fixture.tokens.bob };
    const a = await core(dirA.path, { url, token: fixture.tokens.alice });
    let b = await core(dirB.path, bob);
    const plan = await a.api.createDocument({ title: "Team plan", markdown: "agreed words" });
    await waitFor(() => chunksOf(dirB.path, plan.id).length > 0, "B holds the team's plan", 60_000);
    await b.close();
    garbleChunks(dirB.path, plan.id);
    await fixture.relay.close();
    relayOpen = false;

    b = await core(dirB.path, bob);
    await expect(b.api.getDocument(plan.id)).rejects.toMatchObject({ code: "storage-failure" });
    await expect(b.api.restoreDamagedFromTeam(plan.id)).rejects.toMatchObject({ code: "relay-unavailable" });
    expect((await b.api.listDocuments({})).map((d) => d.title)).toContain("Team plan");
    expect(chunksOf(dirB.path, plan.id)).toEqual([]);

    // The same relay again: its folder (setUpRelay's "relay") and address.
    fixture.relay = await startRelay({ dataDir: join(fixture.dir.path, "relay"), port: Number(new URL(url).port) });
    relayOpen = true;
    await waitFor(async () => (await b.api.getSyncStatus()).state === "connected", "B reconnected", 60_000);
    await waitFor(async () => (await b.api.getDocument(plan.id).catch(() => null))?.title === "Team plan", "the team's copy opens", 60_000);
  });

  it("is refused with 'no-relay' where no team relay is configured, and the plan stays as it was", async () => {
    const { dir, bad, garbage } = await damagedPlanFolder("chopin-refetch-norelay-");
    cleanups.push(() => dir.remove());
    const c = await core(dir.path);
    await expect(c.api.getDocument(bad.id)).rejects.toMatchObject({ code: "storage-failure" });
    await expect(c.api.restoreDamagedFromTeam(bad.id)).rejects.toMatchObject({ code: "no-relay" });
    expect(chunksOf(dir.path, bad.id)).toEqual(garbage);
  });
});
