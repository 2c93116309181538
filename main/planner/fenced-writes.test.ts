/**
 * Fenced writes between real app cores and a real relay (issue #25), the fencing-token case: Alice's app runs the
 * Planner (generation 1) and publishes an entry that reaches Bob; then its link is cut (a TCP proxy) with another entry
 * already prepared under generation 1; the relay's lease expires, Bob's app claims generation 2; when Alice's link
 * comes back, her late write arrives and is refused: it is not on the relay, not at Bob's, and Alice's own replica never
 * held it, while her window is told it was refused. Bob's write under generation 2 lands everywhere. A private plan's
 * writes are fenced by the app's own lease the same way.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { readEntries, type ConversationDocument } from "../../shared/schema/conversation.js";
import { startRelay } from "../../sync-relay/server.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { startTcpProxy } from "../../e2e/support/tcp-proxy.js";
import { conversationIdOf } from "../../shared/node/conversation-identity.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const TTL = 2_000;
const timing = { renewEveryMs: 400, stopMarginMs: 600 };

async function setup() {
  const fixtures = defaultFixtures();
  const fake = await startFakeGitHub({ fixtures });
  cleanups.push(() => fake.close());
  const relayDir = tempDir("chopin-fence-relay-");
  cleanups.push(() => relayDir.remove());
  const relay = await startRelay({ dataDir: relayDir.path, github: { apiUrl: fake.url }, leaseTtlMs: TTL });
  cleanups.push(() => relay.close());
  const core = async (relayUrl: string | null, login: string): Promise<AppCore> => {
    const dir = tempDir("chopin-fence-core-");
    cleanups.push(() => dir.remove());
    const app = await createAppCore({
      dataDir: dir.path,
      mcpPort: 0,
      ...(relayUrl ? { relayUrl } : {}),
      githubClientId: fixtures.clientId,
      githubApiUrl: fake.url,
      githubWebUrl: fake.url,
      plannerLease: { ...timing, localTtlMs: TTL },
      // The test writes as the Planner itself: no turn of the app's own.
      planner: { turns: false },
    });
    cleanups.push(() => app.close());
    const { deviceFlow } = await app.api.startSignIn();
    fake.state.approveDevice(deviceFlow!.userCode, login);
    await waitFor(async () => (await app.api.getAuthState()).state === "signed-in", `${login} signed in`, 30_000);
    return app;
  };
  return { relay, core };
}

const texts = (doc: ConversationDocument | undefined) => (doc ? readEntries(doc).entries.map((entry) => entry.text) : []);
const conversationTexts = async (app: AppCore, planId: DocumentId) => texts((await app.repo.find<ConversationDocument>(conversationIdOf(planId))).doc());

async function plannerEntry(app: AppCore, planId: DocumentId, text: string, turnId: string) {
  const generation = app.planner.ownership.keeperOf(planId).owns(planId)!;
  const entry = await app.planner.entry(planId, { text, turnId, clientRequestId: `answer-${turnId}`, ownershipGeneration: generation, sessionGeneration: 0 });
  return app.planner.writes.prepare<ConversationDocument>(planId, entry.documentId, entry.change);
}

describe("fenced writes", () => {
  it("refuse a partitioned owner's late write under generation 1 once another app holds generation 2, everywhere", { timeout: 120_000 }, async () => {
    const { relay, core } = await setup();
    const proxy = await startTcpProxy(Number(new URL(relay.url).port));
    cleanups.push(() => proxy.close());
    const alice = await core(`ws://127.0.0.1:${proxy.port}`, "alice");
    const bob = await core(relay.url, "bob");
    for (const app of [alice, bob]) await waitFor(async () => (await app.api.getSyncStatus()).state === "connected", "connected", 30_000);
    const plan = await alice.api.createDocument({ title: "Fenced", shared: true });
    const id = plan.id as DocumentId;
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === id && !d.arriving), "Bob has the plan", 30_000);
    await bob.api.getPlannerState(id);

    const asked = await alice.api.postMessage(id, { text: "@Planner outline it", to: "planner", clientRequestId: "a-1" });
    await waitFor(async () => (await alice.api.getPlannerState(id)).ownedHere, "Alice runs the Planner", 30_000);
    const first = await plannerEntry(alice, id, "First answer, generation 1", asked.entry.id);
    expect(await alice.planner.writes.publish(first)).toMatchObject({ ok: true, generation: 1 });
    await waitFor(async () => (await conversationTexts(bob, id)).includes("First answer, generation 1"), "Bob has the first answer", 30_000);
    await waitFor(async () => (await conversationTexts(alice, id)).includes("First answer, generation 1"), "Alice's replica took it back from the relay", 30_000);

    // Prepared while Alice still owns generation 1; her link is cut before it goes out.
    const late = await plannerEntry(alice, id, "Late answer, generation 1", `${asked.entry.id}-late`);
    proxy.cut();
    const published = alice.planner.writes.publish(late);
    await waitFor(async () => (await bob.api.getPlannerState(id)).state === "unowned", "the relay let Alice's lease expire", 30_000);
    const bobAsks = await bob.api.postMessage(id, { text: "@Planner your turn", to: "planner", clientRequestId: "b-1" });
    await waitFor(async () => (await bob.api.getPlannerState(id)).ownedHere, "Bob runs the Planner", 30_000);
    expect((await bob.api.getPlannerState(id)).ownershipGeneration).toBe(2);

    proxy.restore();
    expect(await published).toMatchObject({ ok: false, generation: 1, refusal: "stale-generation" });
    await waitFor(async () => (await alice.api.getPlannerState(id)).refusal?.message.includes("refused and not published") === true, "Alice's window is told", 30_000);
    expect(await alice.api.getPlannerState(id)).toMatchObject({ state: "running-elsewhere", ownershipGeneration: 2, ownedHere: false });

    // Bob's write under generation 2 reaches Alice: everything before it has arrived too, and the late one is nowhere.
    const bobs = await plannerEntry(bob, id, "Bob's answer, generation 2", bobAsks.entry.id);
    expect(await bob.planner.writes.publish(bobs)).toMatchObject({ ok: true, generation: 2 });
    await waitFor(async () => (await conversationTexts(alice, id)).includes("Bob's answer, generation 2"), "Alice has Bob's answer", 30_000);
    for (const app of [alice, bob]) expect(await conversationTexts(app, id)).not.toContain("Late answer, generation 1");
    const atRelay = relay.repo.handles[conversationIdOf(id)]?.doc() as ConversationDocument | undefined;
    expect(texts(atRelay)).toContain("Bob's answer, generation 2");
    expect(texts(atRelay)).not.toContain("Late answer, generation 1");
    // A write of an app that does not own the channel is not even prepared.
    await expect(plannerEntry(alice, id, "not mine", "x")).rejects.toThrow();
  });

  it("fence a private plan's writes by this app's own lease", { timeout: 60_000 }, async () => {
    const { core } = await setup();
    const alice = await core(null, "alice");
    const plan = await alice.api.createDocument({ title: "Mine" });
    const id = plan.id as DocumentId;
    const asked = await alice.api.postMessage(id, { text: "@Planner begin", to: "planner", clientRequestId: "a-1" });
    await waitFor(async () => (await alice.api.getPlannerState(id)).ownedHere, "Alice runs the Planner", 30_000);
    const write = await plannerEntry(alice, id, "Private answer", asked.entry.id);
    expect(await alice.planner.writes.publish(write)).toMatchObject({ ok: true, generation: 1 });
    expect(await conversationTexts(alice, id)).toContain("Private answer");

    // A plan edit goes the same way: prepared on a fork, applied by the keeper, then in the plan.
    const edit = await alice.planner.writes.prepare<{ text: string }>(id, id, (doc) => A.splice(doc, ["text"], 0, 0, "Drafted by the Planner. "));
    expect(await alice.planner.writes.publish(edit)).toMatchObject({ ok: true, generation: 1 });
    expect((await alice.repo.find<{ text: string }>(id)).doc().text).toMatch(/^Drafted by the Planner\. /);

    const stale = await plannerEntry(alice, id, "After the reset", `${asked.entry.id}-2`);
    await alice.api.resetPlannerOwnership(id);
    expect(await alice.planner.writes.publish(stale)).toMatchObject({ ok: false, refusal: "stale-generation" });
    expect(await conversationTexts(alice, id)).not.toContain("After the reset");
  });
});
