/**
 * A plan deleted from the team's list, at the relay (issue #23): refused to every member from then on, whoever still
 * knows its id; an entry that names it again is taken off the list by the relay; its stored data is removed after the
 * grace, and the deletion outlives a restart. Driven over the wire with raw clients, as any member's app would.
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import type { WorkspaceIndex } from "../shared/schema/workspace-index.js";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import { RELAY_PEER_ID } from "./server.js";
import { useTestRelay } from "./test-relay.js";
import { RawDocSync, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

const t = useTestRelay("chopin-relay-deletions-", ["alice", "bob"]);

const entry = (title: string) => ({ title, createdVia: "app" as const, archivedAt: null, createdAt: 1, updatedAt: 1 });

/** The relay's team index as a member edits it: fetched, changed, pushed. */
async function teamIndexOf(client: RawClient, peerId: string): Promise<RawDocSync<WorkspaceIndex>> {
  const sync = new RawDocSync<WorkspaceIndex>(client, peerId, RELAY_PEER_ID, t.relay.teamIndexDocumentId, A.init<WorkspaceIndex>());
  await sync.pull((doc) => doc.documents !== undefined, "the team index arrived");
  return sync;
}

async function sharedPlan(client: RawClient, peerId: string, text: string): Promise<RawDocSync<{ text: string }>> {
  const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
  const plan = new RawDocSync(client, peerId, RELAY_PEER_ID, documentId, A.from({ text }));
  await plan.push();
  return plan;
}

async function unavailableTo(client: RawClient, peerId: string, documentId: string): Promise<void> {
  const [, request] = A.generateSyncMessage(A.init(), A.initSyncState());
  client.send({ type: "request", senderId: peerId, targetId: RELAY_PEER_ID, documentId, data: request! } as never);
  await waitFor(() => client.frames.some((f) => f.type === "doc-unavailable" && (f as { documentId?: string }).documentId === documentId), "doc-unavailable");
}

const storedChunks = (documentId: string) =>
  (t.relay.db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key LIKE ?").get(`${documentId}%`) as { n: number }).n;

describe("a plan deleted from the team's list, at the relay", () => {
  it("is refused to every member from then on, its entry cannot be put back, and its data is purged after the grace", async () => {
    const alice = await t.joined("alice", "alice:laptop");
    const team = await teamIndexOf(alice, "alice:laptop");
    const plan = await sharedPlan(alice, "alice:laptop", "the team's secret");
    team.doc = A.change(team.doc, (d) => void (d.documents[plan.documentId] = entry("Plan")));
    await team.push();

    // Bob reads it while it is listed.
    const bob = await t.joined("bob", "bob:laptop");
    const bobsCopy = new RawDocSync(bob, "bob:laptop", RELAY_PEER_ID, plan.documentId, A.init<{ text: string }>());
    await bobsCopy.pull((doc) => doc.text === "the team's secret", "bob has the plan");

    team.doc = A.change(team.doc, (d) => void delete d.documents[plan.documentId]);
    await team.push();
    await waitFor(() => t.relay.deleted.has(plan.documentId), "the relay recorded the deletion");
    expect(t.log).toContainEqual(expect.stringContaining(`deleted from the team's list: ${plan.documentId}`));

    // A member who never had it, knowing the id from the list's history, is refused; its conversation (issue #25) too.
    const carol = await t.joined("bob", "bob:phone");
    await unavailableTo(carol, "bob:phone", plan.documentId);
    expect(t.relay.deleted.has(conversationIdOf(plan.documentId as DocumentId))).toBe(true);
    await unavailableTo(carol, "bob:phone", conversationIdOf(plan.documentId as DocumentId));
    // A later edit by a member who still holds it is not taken.
    plan.doc = A.change(plan.doc, (d) => void (d.text = "written after the delete"));
    const [, late] = A.generateSyncMessage(plan.doc, A.initSyncState());
    alice.send({ type: "sync", senderId: "alice:laptop", targetId: RELAY_PEER_ID, documentId: plan.documentId, data: late! } as never);
    await unavailableTo(alice, "alice:laptop", plan.documentId);
    const relayCopy = t.relay.repo.handles[plan.documentId as never];
    if (relayCopy?.isReady()) expect((relayCopy.doc() as { text: string }).text).toBe("the team's secret");

    // Listed again (a retry, a hostile member): the relay takes the entry off the list again, for everyone.
    team.doc = A.change(team.doc, (d) => void (d.documents[plan.documentId] = entry("Back?")));
    await team.push();
    await team.pull((doc) => doc.documents[plan.documentId] === undefined, "the relay took the entry off again");
    await unavailableTo(bob, "bob:laptop", plan.documentId);

    // Within the grace its data stays (an operator can recover it); once the grace has passed it is removed.
    expect(await t.relay.purgeDeleted()).toEqual([]);
    expect(storedChunks(plan.documentId)).toBeGreaterThan(0);
  });

  it("stays deleted across a restart, and the sweep removes its data once the grace has passed", async () => {
    const alice = await t.joined("alice", "alice:laptop");
    const team = await teamIndexOf(alice, "alice:laptop");
    const plan = await sharedPlan(alice, "alice:laptop", "to be purged");
    team.doc = A.change(team.doc, (d) => void (d.documents[plan.documentId] = entry("Plan")));
    await team.push();
    team.doc = A.change(team.doc, (d) => void delete d.documents[plan.documentId]);
    await team.push();
    await waitFor(() => t.relay.deleted.has(plan.documentId), "the relay recorded the deletion");
    await t.relay.repo.flush();
    expect(storedChunks(plan.documentId)).toBeGreaterThan(0);
    const deletedAt = t.relay.deleted.describe(plan.documentId)!.deletedAt;

    // Same data folder, a grace that has passed: the deletion is still known, and the start purges the data.
    await t.reopen({ deletedGraceMs: 0 });
    expect(t.relay.deleted.has(plan.documentId)).toBe(true);
    await waitFor(() => storedChunks(plan.documentId) === 0, "the data purged");
    expect(t.relay.deleted.describe(plan.documentId)).toEqual({ deletedAt, purgedAt: expect.any(Number) });
    const bob = await t.joined("bob", "bob:laptop");
    await unavailableTo(bob, "bob:laptop", plan.documentId);
  });
});
