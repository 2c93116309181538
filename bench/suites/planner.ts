/**
 * Planner suite (issue #25): what ownership and fencing cost. Two real app cores signed in to the fake GitHub, a real
 * relay, all on loopback in this process:
 * - claim: a message to the Planner until this app runs it (eligibility, the claim round trip, the push), and the
 *   bare LeaseClient claim round trip, each after a reset so every claim is a new owner (a new generation);
 * - fenced write against a plain relayed change: a conversation entry from Alice's app until it is in Bob's replica,
 *   written as an ordinary change, and as the Planner's fenced write (prepared on a fork, checked and applied by the
 *   relay, synced on), interleaved; the ratio of the two is the fence's added latency.
 * - a tool call behind the seven-check permission gate (the turn fence among them) (facts cached as they are between GitHub checks) against the
 *   same handler alone;
 * - a turn's context of a 10,000-entry transcript: the builder alone, and with every entry read and checked first.
 * Timings are printed, never asserted.
 */
import type { DocHandle, DocumentId } from "@automerge/automerge-repo";
import { rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAppCore } from "../../main/core/app-core.js";
import type { AppCore } from "../../main/core/types.js";
import { conversationIdOf } from "../../shared/node/conversation-identity.js";
import { readEntries, type ConversationDocument } from "../../shared/schema/conversation.js";
import { backscroll, bootstrap } from "../../main/planner/turn-context.js";
import { ParsedTranscript } from "../../main/conversations/parsed-transcript.js";
import { next as A } from "@automerge/automerge";
import { checkPermission, type GateDeps } from "../../main/planner/permission-gate.js";
import { turnFenceRefusal } from "../../main/planner/turn-fence.js";
import { planBlocks } from "../../main/planner/plan-blocks.js";
import { createPermissionFacts } from "../../main/github/permission-facts.js";
import { createGitHubRest } from "../../main/github/rest-client.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { defaultFixtures, PLANETS } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import type { Row, Suite } from "../lib/report.js";
import { summarize } from "../lib/stats.js";

const SAMPLES = { quick: 15, full: 100 };
const CONTEXT_ENTRIES = 10_000;

/** A conversation document with `count` entries by three people and the Planner, a session boundary a third of the way. */
function longTranscript(count: number): ConversationDocument {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(32, "0");
    const author = i % 4 === 3 ? { kind: "planner" } : i === Math.floor(count / 3) ? { kind: "system" } : { kind: "person", name: ["Ada", "Bob", "Cy"][i % 3], device: "device-1" };
    entries[id] = {
      id,
      seq: i + 1,
      author,
      to: i % 4 === 2 ? "planner" : "room",
      text: `Message ${i}: ${"words of a plan discussion ".repeat(4)}`,
      at: i,
      clientRequestId: `r${i}`,
      ...(i === Math.floor(count / 3) ? { sessionGeneration: 1 } : {}),
    };
  }
  return { schemaVersion: 1, kind: "conversation", planId: "bench", entries };
}
const WARMUP = 5;

/** Resolves when the handle holds an entry whose text is `text`. */
function arrival(handle: DocHandle<ConversationDocument>, text: string): Promise<void> {
  const holds = () => readEntries(handle.doc()).entries.some((entry) => entry.text === text);
  if (holds()) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = () => {
      if (!holds()) return;
      handle.off("change", listener);
      resolve();
    };
    handle.on("change", listener);
  });
}

export const plannerSuite: Suite = async (ctx) => {
  const samples = ctx.quick ? SAMPLES.quick : SAMPLES.full;
  const fixtures = defaultFixtures();
  const fake = await startFakeGitHub({ fixtures });
  const root = mkdtempSync(join(tmpdir(), "chopin-bench-planner-"));
  const relay = await startRelay({ dataDir: join(root, "relay"), github: { apiUrl: fake.url } });
  const cores: AppCore[] = [];
  try {
    const core = async (name: string): Promise<AppCore> => {
      const app = await createAppCore({ dataDir: join(root, name), mcpPort: 0, relayUrl: relay.url, githubClientId: fixtures.clientId, githubApiUrl: fake.url, githubWebUrl: fake.url, planner: { turns: false } });
      cores.push(app);
      const { deviceFlow } = await app.api.startSignIn();
      fake.state.approveDevice(deviceFlow!.userCode, name);
      await waitFor(async () => (await app.api.getAuthState()).state === "signed-in" && (await app.api.getSyncStatus()).state === "connected", `${name} ready`, 60_000);
      return app;
    };
    const alice = await core("alice");
    const bob = await core("bob");
    const plan = await alice.api.createDocument({ title: "Bench plan", shared: true });
    const id = plan.id as DocumentId;
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === id && !d.arriving), "Bob has the plan", 60_000);
    await alice.api.postMessage(id, { text: "hello", to: "room", clientRequestId: "hello" });
    // Read through Bob's app first: his conversation is begun from its genesis and then takes Alice's entries.
    await waitFor(async () => (await bob.api.readConversation(id)).entries.some((entry) => entry.text === "hello"), "Bob has the conversation", 60_000);
    const atBob = await bob.repo.find<ConversationDocument>(conversationIdOf(id));
    await alice.api.getPlannerState(id);

    // ---- claim latency ----
    ctx.log(`claims: ${samples} after resets`);
    const invoke: number[] = [];
    const roundTrip: number[] = [];
    const ownership = alice.planner.ownership;
    const keeper = ownership.keeperOf(id);
    for (let i = 0; i < WARMUP + samples; i++) {
      await alice.api.resetPlannerOwnership(id);
      const owned = new Promise<void>((resolve) => {
        const stop = alice.events.on("planner-changed", (state) => {
          if (state.documentId === id && state.ownedHere) {
            stop();
            resolve();
          }
        });
      });
      const started = performance.now();
      await alice.api.postMessage(id, { text: `@Planner ${i}`, to: "planner", clientRequestId: `ask-${i}` });
      await owned;
      if (i >= WARMUP) invoke.push(performance.now() - started);
      await alice.api.resetPlannerOwnership(id);
      const t = performance.now();
      const { granted } = await keeper.claim(id);
      if (!granted) throw new Error("a claim after a reset was not granted");
      if (i >= WARMUP) roundTrip.push(performance.now() - t);
    }

    // ---- fenced write vs plain change, interleaved ----
    ctx.log(`writes: ${samples} plain and ${samples} fenced, interleaved`);
    const plain: number[] = [];
    const fenced: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < WARMUP + samples; i++) {
      const plainText = `plain ${i}`;
      const arrivedPlain = arrival(atBob, plainText);
      let t = performance.now();
      await alice.api.postMessage(id, { text: plainText, to: "room", clientRequestId: `plain-${i}` });
      await arrivedPlain;
      if (i >= WARMUP) plain.push(performance.now() - t);

      const generation = keeper.owns(id);
      if (generation === null) throw new Error("Alice no longer runs the Planner");
      const fencedText = `fenced ${i}`;
      const entry = await alice.planner.entry(id, { text: fencedText, turnId: `turn-${i}`, clientRequestId: `fenced-${i}`, ownershipGeneration: generation, sessionGeneration: 0 });
      const arrivedFenced = arrival(atBob, fencedText);
      t = performance.now();
      const write = await alice.planner.writes.prepare<ConversationDocument>(id, entry.documentId, entry.change);
      const outcome = await alice.planner.writes.publish(write);
      if (!outcome.ok) throw new Error(`fenced write refused: ${outcome.reason}`);
      const acked = performance.now() - t;
      await arrivedFenced;
      if (i >= WARMUP) {
        fenced.push(performance.now() - t);
        answered.push(acked);
      }
    }

    // ---- the permission gate around a tool call ----
    ctx.log(`gate: ${samples * 10} tool calls with and without the seven checks, interleaved`);
    const rest = createGitHubRest({ apiBaseUrl: fake.url, token: () => "ghu_alice" });
    const credential = { accessToken: "ghu_alice", revision: 1, expiresAt: null, identity: { login: "alice", id: 1, name: null }, origin: "device-flow" as const };
    const facts = createPermissionFacts({ credentials: { current: () => credential }, rest, policy: { allowedUsers: [], allowedOrganizations: [] } });
    const { data: planets } = await rest.octokit.request("GET /repositories/{id}", { id: PLANETS.id });
    const repository = { owner: PLANETS.owner, name: PLANETS.name, nodeId: (planets as { node_id: string }).node_id, repositoryId: PLANETS.id, installationId: 71, defaultBranch: "main" };
    // The turn fence reads the conversation's kept transcript in the app (turn-fence.ts); here a live turn's answer.
    const replica = { sessionGeneration: async () => 1, abortRequestedBy: async () => null };
    const gate: GateDeps = { admitted: () => ({ ok: true }), currentUser: () => "alice", owns: () => 1, facts, repository: async () => repository, turnFence: (channelId, fence) => turnFenceRefusal(replica, channelId, fence) };
    const gateSession = { channelId: "bench", user: "alice", ownershipGeneration: 1, credentialRevision: 1, turn: { turnId: "bench-turn", sessionGeneration: 1 } };
    const planText = "# Plan\n\n" + Array.from({ length: 60 }, (_, i) => `## Step ${i}\n\nDo the ${i}th thing carefully, then check it.\n`).join("\n");
    const tool = async () => planBlocks(planText);
    const first = await checkPermission(gate, gateSession);
    if (!first.allowed) throw new Error(`the gate refused the bench's call: ${first.reason}`);
    const bare: number[] = [];
    const gated: number[] = [];
    for (let i = 0; i < WARMUP + samples * 10; i++) {
      let t = performance.now();
      await tool();
      if (i >= WARMUP) bare.push(performance.now() - t);
      t = performance.now();
      const decision = await checkPermission(gate, gateSession);
      if (!decision.allowed) throw new Error(decision.reason);
      await tool();
      if (i >= WARMUP) gated.push(performance.now() - t);
    }

    // ---- context of a long transcript ----
    ctx.log("context: a 10,000-entry transcript");
    const transcript = longTranscript(CONTEXT_ENTRIES);
    const parsed = readEntries(transcript).entries;
    const builderOnly: number[] = [];
    const withRead: number[] = [];
    // As a turn meets it: the conversation kept parsed (parsed-transcript.ts), one new message since the last turn.
    let doc = A.from<ConversationDocument>(transcript as never);
    const kept = new ParsedTranscript();
    kept.read(doc);
    const incremental: number[] = [];
    for (let i = 0; i < WARMUP + samples; i++) {
      const n = CONTEXT_ENTRIES + i;
      doc = A.change(doc, (d) => {
        d.entries[n.toString(16).padStart(32, "0")] = { id: n.toString(16).padStart(32, "0"), seq: n + 1, author: { kind: "person", name: "Ada", device: "device-1" }, to: "planner", text: `Message ${n}`, at: n, clientRequestId: `r${n}` };
      });
      const t = performance.now();
      const { entries } = kept.read(doc);
      backscroll(entries);
      bootstrap(entries);
      if (i >= WARMUP) incremental.push(performance.now() - t);
    }
    for (let i = 0; i < WARMUP + samples; i++) {
      let t = performance.now();
      backscroll(parsed);
      bootstrap(parsed);
      if (i >= WARMUP) builderOnly.push(performance.now() - t);
      t = performance.now();
      const entries = readEntries(transcript).entries;
      backscroll(entries);
      bootstrap(entries);
      if (i >= WARMUP) withRead.push(performance.now() - t);
    }

    const row = (name: string, values: number[]): Row => {
      const s = summarize(values);
      return { name, metrics: { n: s.n, "p50 ms": s.p50, "p95 ms": s.p95, "max ms": s.max } };
    };
    const p = summarize(plain);
    const f = summarize(fenced);
    return {
      suite: "planner",
      tables: [
        { title: "claiming the Planner (relay on loopback, after a reset each time)", rows: [row("message to the Planner -> this app runs it", invoke), row("LeaseClient.claim round trip", roundTrip)] },
        {
          title: "a conversation entry from Alice's app until it is in Bob's replica",
          rows: [
            row("plain relayed change (postMessage)", plain),
            row("fenced write (prepare + publish + sync)", fenced),
            row("fenced write: the relay's answer", answered),
            { name: "fenced / plain", metrics: { "p50 x": f.p50 / p.p50, "p95 x": f.p95 / p.p95 } },
          ],
        },
        {
          title: "a tool call (read_plan's blocks of a 60-step plan) with the seven-check gate and without (target <= 1.2x, <= 2 ms added at p50)",
          rows: [
            row("handler alone", bare),
            row("gate + handler", gated),
            { name: "gated / bare", metrics: { "p50 x": summarize(gated).p50 / summarize(bare).p50, "added p50 ms": summarize(gated).p50 - summarize(bare).p50 } },
          ],
        },
        {
          title: `a turn's context (backscroll + bootstrap) of a ${CONTEXT_ENTRIES.toLocaleString("en-US")}-entry transcript (target 5 ms)`,
          rows: [
            row("kept transcript, one new message since the last read (what a turn does)", incremental),
            row("from parsed entries (the builder alone)", builderOnly),
            row("reading and checking every entry afresh (readEntries)", withRead),
          ],
        },
      ],
      notes: [
        "two app cores and the relay share this process (and the machine's cores) with the fake GitHub",
        "the plain change is answered once on Alice's disk; the fenced write once on the relay's disk after the fence",
      ],
    };
  } finally {
    for (const app of cores) await app.close().catch(() => undefined);
    await relay.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
};
