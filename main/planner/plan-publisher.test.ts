/**
 * The Planner's plan write is recognisable as the Planner's wherever it arrives (issue #26, change marks): written
 * through the real fenced writer and publisher, the change shared/planner-changes.ts finds is exactly the one the
 * keeper took; a person's typing, a coding agent that calls itself "Planner" (MCP, on this device's actor) and a
 * person named "Planner" are not.
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { plannerChangesSince, PLANNER_AUTHOR } from "../../shared/planner-changes.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { stampAuthor } from "../documents/authors.js";
import { agentChangeMessage } from "../documents/change-messages.js";
import { FencedWriter } from "./fenced-writer.js";
import type { LeaseClient } from "./lease-client.js";
import { planPublisher } from "./plan-publisher.js";
import { turnFenceRefusal, type TurnFence } from "./turn-fence.js";

const repos: Repo[] = [];
afterEach(async () => {
  while (repos.length) await repos.pop()!.shutdown();
});

/** A replica whose lease keeper takes every write at once (as the relay would, then syncing it back here). */
function setup(markdown: string, fencing?: { turn: () => TurnFence | null; stoppedBy: () => string | null }) {
  const repo = new Repo({ network: [] });
  repos.push(repo);
  const handle = repo.create<PlanDocument>({ text: markdown, authors: {} } as unknown as PlanDocument);
  const keeper = {
    owns: () => 1,
    whenLinked: async () => true,
    fencedWrite: async (_channel: string, _document: string, _generation: number, changes: Uint8Array[]) => {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
      return { ok: true as const };
    },
  } as unknown as LeaseClient;
  let kept = 0;
  const counting = { ...keeper, fencedWrite: async (...args: Parameters<LeaseClient["fencedWrite"]>) => (kept++, keeper.fencedWrite(...args)) } as unknown as LeaseClient;
  const replica = { sessionGeneration: async () => 1, abortRequestedBy: async () => fencing?.stoppedBy() ?? null };
  const writes = new FencedWriter({ repo, clientFor: () => counting, turnFence: (channelId, fence) => turnFenceRefusal(replica, channelId, fence) });
  const documents = {
    getContent: async () => ({ detail: { revision: A.getHeads(handle.doc()).join(","), archivedAt: null }, markdown: handle.doc().text }),
  } as unknown as Parameters<typeof planPublisher>[0]["documents"];
  const publisher = planPublisher({ documents, writes, ...(fencing ? { turn: fencing.turn } : {}) }, handle.documentId as DocumentId);
  return { handle: handle as DocHandle<PlanDocument>, publisher, kept: () => kept };
}

describe("the Planner's plan writes, as a replica tells them apart", () => {
  it("finds the publisher's fenced write, and only it, among the changes since", async () => {
    const { handle, publisher } = setup("# Launch\n\nWe ship in May.\n");
    const before = A.getHeads(handle.doc());
    const result = await publisher.publish("# Launch\n\nWe ship in May.\n\n## Risks\n");
    expect(result.ok).toBe(true);
    const found = plannerChangesSince(handle.doc(), before);
    expect(found).toHaveLength(1);
    expect(A.getHeads(handle.doc())).toEqual([found[0].hash]);
    expect(found[0].deps).toEqual(before);
    const change = A.getAllChanges(handle.doc()).map((bytes) => A.decodeChange(bytes)).find((c) => c.hash === found[0].hash)!;
    expect(change.message).toBe(agentChangeMessage({ agent: PLANNER_AUTHOR }));
    expect(handle.doc().authors?.[change.actor]).toBe(PLANNER_AUTHOR);
  });

  it("does not take a person's typing, an MCP client named Planner, or a person named Planner for the Planner", () => {
    const { handle } = setup("Plan\n");
    const before = A.getHeads(handle.doc());
    handle.change((doc) => {
      A.splice(doc, ["text"], 0, 0, "My ");
      stampAuthor(doc, "Ada");
    });
    // A coding agent's write over MCP runs on this device's actor, which carries the person's name.
    handle.change((doc) => A.splice(doc, ["text"], 0, 0, "x"), { message: agentChangeMessage({ agent: "Planner" }) });
    // A person who calls themselves "Planner", typing (no agent message).
    let other = A.clone(handle.doc(), { actor: "0a".repeat(16) });
    other = A.change(other, (doc) => {
      A.splice(doc, ["text"], 0, 0, "y");
      stampAuthor(doc, "Planner");
    });
    handle.update((doc) => A.merge(doc, other));
    expect(plannerChangesSince(handle.doc(), before)).toEqual([]);
  });

  it("refuses a turn's edit once the replica says the turn was stopped, or when no turn runs: nothing reaches the keeper", async () => {
    let stoppedBy: string | null = null;
    let turn: TurnFence | null = { turnId: "m-1", sessionGeneration: 1 };
    const { handle, publisher, kept } = setup("# Launch\n", { turn: () => turn, stoppedBy: () => stoppedBy });
    expect(await publisher.publish("# Launch\n\n- one\n")).toMatchObject({ ok: true });
    expect(kept()).toBe(1);
    stoppedBy = "Ada";
    expect(await publisher.publish("# Launch\n\n- two\n")).toEqual({ ok: false, reason: expect.stringMatching(/^Ada stopped this turn/) });
    turn = null;
    expect(await publisher.publish("# Launch\n\n- three\n")).toEqual({ ok: false, reason: expect.stringMatching(/No turn of this session is running/) });
    expect(kept()).toBe(1);
    expect(handle.doc().text).toBe("# Launch\n\n- one\n");
  });

  it("refuses a turn's edit under another ownership generation than the one this app holds now", async () => {
    // The keeper here owns generation 1: a turn that began under 2 (or under 1 while the app holds 2) writes nothing.
    const { publisher, kept } = setup("# Launch\n", { turn: () => ({ turnId: "m-1", sessionGeneration: 1, ownershipGeneration: 2 }), stoppedBy: () => null });
    expect(await publisher.publish("# Launch\n\n- one\n")).toEqual({ ok: false, reason: expect.stringMatching(/began under ownership generation 2; .* under 1 now/) });
    expect(kept()).toBe(0);
  });
});
