/**
 * Opening a teammate's plan that the team's list already names but whose content has not reached this device (issue
 * #24: a plan clicked a moment after a teammate made it said "not available"): it is listed as arriving, opening it
 * waits for it while the relay can bring it, up to TEAM_PLAN_ARRIVAL_WAIT_MS, and offline it says why at once.
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { TEAM_PLAN_ARRIVAL_RETRY_MS, TEAM_PLAN_ARRIVAL_WAIT_MS } from "./bounds.js";
import { fixturesClosedAfterEach, TEST_RELAY_URL, type Fixture } from "./test-fixture.js";
import { newIndex } from "./workspace-index.js";

const fixture = fixturesClosedAfterEach();
let reachable = true;
afterEach(() => {
  reachable = true;
});

const entry = { title: "Their plan", createdVia: "app" as const, archivedAt: null, createdAt: 5, updatedAt: 5 };

function theirPlan(): Uint8Array {
  return A.save(
    A.change(A.init<PlanDocument>(), (d) => {
      Object.assign(d, {
        schemaVersion: 1, kind: "plan", title: "Their plan", text: "their words", repository: null, createdVia: "app",
        provenance: null, brief: null, archivedAt: null, createdAt: 5, updatedAt: 5, authors: {},
      });
    }),
  );
}

/** A fixture whose team's list names a plan this device does not have yet. */
async function listedNotHere(options: { arrivalWaitMs?: number } = {}): Promise<{ fx: Fixture; id: string }> {
  const fx = await fixture({ relayUrl: TEST_RELAY_URL, teamReachable: () => reachable, arrivalRetryMs: 20, ...options });
  const team = fx.repo.create<WorkspaceIndex>(newIndex("team"));
  await fx.service.setTeamIndex(team.documentId, true);
  const { documentId: id } = parseAutomergeUrl(generateAutomergeUrl());
  team.change((d) => void (d.documents[id] = entry));
  return { fx, id };
}

describe("a teammate's plan still arriving", () => {
  it("bounds the wait with named constants", () => {
    expect(TEAM_PLAN_ARRIVAL_WAIT_MS).toBe(10_000);
    expect(TEAM_PLAN_ARRIVAL_RETRY_MS).toBeLessThan(TEAM_PLAN_ARRIVAL_WAIT_MS);
  });

  it("is listed as arriving, and opens once its content comes, though it was not there when asked", async () => {
    const { fx, id } = await listedNotHere();
    expect((await fx.service.listDocuments()).find((d) => d.id === id)).toMatchObject({ title: "Their plan", shared: true, arriving: true });
    const opening = fx.service.getDocument(id);
    // The content reaches this device while the window waits (as the relay would deliver it).
    setTimeout(() => fx.repo.import<PlanDocument>(theirPlan(), { docId: id as never }), 100);
    await expect(opening).resolves.toMatchObject({ id, title: "Their plan" });
    expect((await fx.service.listDocuments()).find((d) => d.id === id)?.arriving).toBeUndefined();
  });

  it("says it has not reached the relay yet once the wait is over, and opens later when it has", async () => {
    const { fx, id } = await listedNotHere({ arrivalWaitMs: 150 });
    await expect(fx.service.getDocument(id)).rejects.toMatchObject({ code: "not-found", message: expect.stringMatching(/not reached the relay yet/) });
    fx.repo.import<PlanDocument>(theirPlan(), { docId: id as never });
    await expect(fx.service.getDocument(id)).resolves.toMatchObject({ title: "Their plan" });
  });

  it("offline, says at once that the relay is not connected instead of waiting", async () => {
    const { fx, id } = await listedNotHere({ arrivalWaitMs: 60_000 });
    reachable = false;
    await expect(fx.service.getDocument(id)).rejects.toMatchObject({ code: "relay-unavailable", message: expect.stringMatching(/relay is not connected/) });
  });

  it("a plan this device keeps private is never waited for: not listed as arriving", async () => {
    const fx = await fixture({ relayUrl: TEST_RELAY_URL, teamReachable: () => true });
    const mine = await fx.service.createDocument({ title: "Mine", shared: false });
    expect((await fx.service.listDocuments()).find((d) => d.id === mine.id)?.arriving).toBeUndefined();
  });
});
