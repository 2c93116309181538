/**
 * An agent chat's session boundaries in a real app core (issue #27, the seed's "Session boundaries" and its September 11
 * regression), the real Copilot runtime answering through our fake OpenAI server: Stop while the agent streams a reply
 * that holds a unique code word, then `/new` (retried), then "What was the word?" at once. The word never reaches the
 * model again, the stopped turn ends with its stop record alone (no late reply, nothing of its partial words), `/new`
 * calls no model and leaves no empty-response notice, the three keep their order, and the chat returns to waiting.
 * Also: the chat directive is in the system message of the first session, of the fresh one after `/new` and of the one
 * made after a restart of the core; and turning agent chat off lets a running turn settle while a message sent before
 * the switch went off, not yet taken, waits (and is taken up once it is on again).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationEntryView, PlannerTurnProgress } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import type { RecordedRequest } from "../../test-support/fake-openai/types.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { AGENT_INSTRUCTIONS_BEGIN } from "../planner/agent-directive.js";
import { CHAT_DIRECTIVE } from "../planner/chat-directive.js";
import { PLANNER_SYSTEM_MESSAGE } from "../planner/turn-runner.js";
import { tempDir } from "../sync/test-helpers.js";
import { delivered } from "./agent-chat-test-support.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const WORD = "PELICAN-7731";

async function startModel(): Promise<FakeOpenAI> {
  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  return model;
}

/** A core on `dataDir` (kept across a restart); `byCommandLine`: agent chat on for the run, else by the switch. */
async function startCore(model: FakeOpenAI, dataDir: string, byCommandLine = true): Promise<AppCore> {
  const core = await createAppCore({
    dataDir,
    mcpPort: 0,
    enableAgentChat: byCommandLine,
    planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } },
  });
  let closed = false;
  cleanups.push(() => (closed ? undefined : core.close()));
  const close = core.close.bind(core);
  core.close = async () => {
    closed = true;
    await close();
  };
  await core.api.updateSettings({ displayName: "Ada" });
  return core;
}

async function setup(byCommandLine = true) {
  const model = await startModel();
  const dir = tempDir("chopin-agent-chat-sessions-");
  cleanups.push(() => dir.remove());
  return { model, dir: dir.path, core: await startCore(model, dir.path, byCommandLine) };
}

const entries = async (core: AppCore, planId: DocumentId) => (await core.api.readConversation(planId, { limit: 200 })).entries;
/** The entry answering message `id` (not the mark of its turn begun). */
const answerTo = async (core: AppCore, planId: DocumentId, id: string) => (await entries(core, planId)).find((e) => e.turn?.id === id && e.turn.state === "answered");
const systemOf = (request: RecordedRequest) => messageText(request.body.messages.find((m) => m.role === "system"));

describe("an agent chat's session boundaries", () => {
  it("Stop while a code word streams, /new (retried) and a follow-up at once: the word never reaches the model again and nothing is written late", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    const streamed = new Map<string, string>();
    core.events.on("planner-turn", (p: PlannerTurnProgress) => streamed.set(p.turnId, p.text));

    // The reply streams its first half (the word in it) and holds there, mid-stream, until the turn is stopped.
    model.script({ text: `${WORD} is the word I chose. ${"It is a bird and a number, nothing more to it. ".repeat(2)}`, chunks: 6, holdAfterChunks: 3 });
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "Think of a secret code word and tell me.", clientRequestId: "c-1" }));
    const planId = first.planId as DocumentId;
    await model.whenHeld();
    await waitFor(() => streamed.get(first.entry.id)?.includes(WORD), "the word reached the app mid-stream", 60_000);
    expect(model.requests).toHaveLength(1);

    // Stop, /new, its retry and the follow-up, each sent without waiting for anything to be processed.
    model.script({ text: "I have no word from before this session." });
    expect(await core.api.stopAgentChat(scout.id)).toMatchObject({ abortTurn: first.entry.id, author: { name: "Ada" }, text: "Stopped Scout's turn." });
    const reset = delivered(await core.api.sendAgentChat(scout.id, { text: "/new", clientRequestId: "c-new" }));
    const retried = delivered(await core.api.sendAgentChat(scout.id, { text: "/new", clientRequestId: "c-new" }));
    expect(retried.entry.id).toBe(reset.entry.id);
    const ask = delivered(await core.api.sendAgentChat(scout.id, { text: "What was the word?", clientRequestId: "c-ask" }));
    await waitFor(async () => (await answerTo(core, planId, ask.entry.id)) !== undefined, "the follow-up answered", 60_000);

    // The model was asked twice in all: the stopped turn, and the follow-up. /new called it zero times and the stopped
    // turn was never woken again.
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests.slice(1)) {
      expect(JSON.stringify(request.body)).not.toContain(WORD);
      expect(JSON.stringify(request.body)).not.toContain("Think of a secret code word");
    }
    // A fresh session: only the system message (the chat directive in it) and the follow-up.
    const fresh = model.requests[1]!;
    expect(fresh.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(systemOf(fresh)).toContain(CHAT_DIRECTIVE);
    expect(messageText(fresh.body.messages[1])).toContain("What was the word?");

    // Nothing of the stopped turn's words was written, then or later: its stop record says who stopped it, nothing more.
    const all = await entries(core, planId);
    expect(all.filter((e) => e.text.includes(WORD))).toEqual([]);
    const stopped = all.filter((e) => e.author.kind === "planner" && e.turn?.id === first.entry.id);
    expect(stopped.map((e) => [e.turn!.state, e.text])).toEqual([
      ["started", "The Planner is working on this."],
      ["answered", "*Stopped by Ada before Scout finished.*"],
    ]);
    expect(all.filter((e) => e.author.kind === "planner" && e.text.includes("nothing to say"))).toEqual([]);
    // One boundary, for the retried /new; the three answered in the order they were sent.
    const boundaries = all.filter((e) => e.boundary);
    expect(boundaries.map((e) => e.turn?.id)).toEqual([reset.entry.id]);
    // A chat's records name its agent, never "the Planner".
    expect(boundaries[0]!.text).toBe("New session: Scout starts afresh from here, with nothing said before this line.");
    const order = (e: ConversationEntryView | undefined) => all.findIndex((x) => x.id === e!.id);
    expect(order(stopped[1])).toBeLessThan(order(boundaries[0]));
    expect(order(boundaries[0])).toBeLessThan(order(await answerTo(core, planId, ask.entry.id)));
    expect((await answerTo(core, planId, ask.entry.id))!.text).toBe("I have no word from before this session.");
    expect((await core.api.readAgentChat(scout.id))!.state).toBe("waiting");
  });

  it("Stop and a follow-up without /new: the follow-up runs in a fresh session, never continuing the stopped stream", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ text: `${WORD} is the word I chose. ${"It is a bird and a number, nothing more to it. ".repeat(2)}`, chunks: 6, holdAfterChunks: 3 }, { text: "Fresh." });
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "Think of a secret code word and tell me.", clientRequestId: "f-1" }));
    const planId = first.planId as DocumentId;
    await model.whenHeld();
    await core.api.stopAgentChat(scout.id);
    await waitFor(async () => (await answerTo(core, planId, first.entry.id)) !== undefined, "the stop record", 60_000);
    const next = delivered(await core.api.sendAgentChat(scout.id, { text: "Go on.", clientRequestId: "f-2" }));
    await waitFor(async () => (await answerTo(core, planId, next.entry.id)) !== undefined, "the follow-up answered", 60_000);
    // A session made afresh gets the system message and one bootstrap; a continued one would carry the stopped turn.
    const followUp = model.requests[1]!;
    expect(followUp.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(followUp.body)).not.toContain(WORD);
    expect(core.planner.runtimeSessions()).toBe(1);
  });

  it("two /new queued separately are two boundaries, one session generation each, processed in order without the model", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ text: "Noted: tulips." }, { text: "A fresh start." });
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "Remember tulips.", clientRequestId: "q-1" }));
    const planId = first.planId as DocumentId;
    await waitFor(async () => (await answerTo(core, planId, first.entry.id)) !== undefined, "the first answer", 60_000);
    // Two resets and a follow-up sent at once: admitted in call order, each its own command.
    const [reset1, reset2, ask] = (
      await Promise.all([
        core.api.sendAgentChat(scout.id, { text: "/new", clientRequestId: "q-new-1" }),
        core.api.sendAgentChat(scout.id, { text: "/new", clientRequestId: "q-new-2" }),
        core.api.sendAgentChat(scout.id, { text: "What should I remember?", clientRequestId: "q-ask" }),
      ])
    ).map(delivered);
    await waitFor(async () => (await answerTo(core, planId, ask!.entry.id)) !== undefined, "the follow-up answered", 60_000);
    const all = await entries(core, planId);
    const boundaries = all.filter((e) => e.boundary);
    expect(boundaries.map((e) => [e.turn?.id, e.sessionGeneration])).toEqual([
      [reset1!.entry.id, 1],
      [reset2!.entry.id, 2],
    ]);
    const answer = (await answerTo(core, planId, ask!.entry.id))!;
    expect(answer).toMatchObject({ text: "A fresh start.", sessionGeneration: 2 });
    const order = (id: string) => all.findIndex((e) => e.id === id);
    expect(order(boundaries[0]!.id)).toBeLessThan(order(boundaries[1]!.id));
    expect(order(boundaries[1]!.id)).toBeLessThan(order(answer.id));
    // The model was asked twice: the first message and the follow-up, never for a reset; the follow-up's session
    // holds nothing from before the boundaries.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.body)).not.toContain("tulips");
  });

  it("carries the chat directive on the first turn, after /new and after a restart, after the base directive and before the agent's instructions", { timeout: 150_000 }, async () => {
    const { core, model, dir } = await setup();
    const scout = await core.api.createAgent({ name: "Scout", instructions: "Be brief." });
    model.script({ text: "One." }, { text: "Two." }, { text: "Three." });
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "Plan a picnic", clientRequestId: "d-1" }));
    const planId = first.planId as DocumentId;
    await waitFor(async () => (await answerTo(core, planId, first.entry.id)) !== undefined, "first answered", 60_000);
    await core.api.sendAgentChat(scout.id, { text: "/new", clientRequestId: "d-new" });
    const second = delivered(await core.api.sendAgentChat(scout.id, { text: "Plan a hike", clientRequestId: "d-2" }));
    await waitFor(async () => (await answerTo(core, planId, second.entry.id)) !== undefined, "second answered", 60_000);
    await core.close();

    const again = await startCore(model, dir);
    const third = delivered(await again.api.sendAgentChat(scout.id, { text: "Plan a swim", clientRequestId: "d-3" }));
    await waitFor(async () => (await answerTo(again, planId, third.entry.id)) !== undefined, "third answered after the restart", 60_000);

    expect(model.requests).toHaveLength(3);
    for (const request of model.requests) {
      const system = systemOf(request);
      expect(system).toContain(CHAT_DIRECTIVE);
      expect(system.indexOf(PLANNER_SYSTEM_MESSAGE)).toBe(0);
      expect(system.indexOf(CHAT_DIRECTIVE)).toBeGreaterThan(PLANNER_SYSTEM_MESSAGE.length - 1);
      expect(system.indexOf(CHAT_DIRECTIVE)).toBeLessThan(system.indexOf(AGENT_INSTRUCTIONS_BEGIN));
      // This profile may not edit the plan and no hand_off_plan tool exists here: the session is told so.
      expect(system).toMatch(/no edit_plan tool/);
      expect(system).toMatch(/no hand_off_plan tool/);
    }
  });

  it("turned off mid-turn: the running turn settles and its answer is written; a message not yet taken waits until it is on again", { timeout: 120_000 }, async () => {
    const { core, model } = await setup(false);
    await core.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ text: "The answer to the first, in full.", chunks: 4, holdAfterChunks: 2 }, { text: "The second, once on again." });
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "First", clientRequestId: "s-1" }));
    const planId = first.planId as DocumentId;
    await model.whenHeld();
    const second = delivered(await core.api.sendAgentChat(scout.id, { text: "Second", clientRequestId: "s-2" }));
    await core.api.updateExperimentalSettings({ enableAgentChat: false });
    expect(model.release()).toBe(1);
    await waitFor(async () => (await answerTo(core, planId, first.entry.id)) !== undefined, "the running turn settled", 60_000);
    expect((await answerTo(core, planId, first.entry.id))!.text).toBe("The answer to the first, in full.");
    // The loop went on to the next message only to find agent chat off, and returned: nothing begun for it, the model
    // not asked, the chat still active (a message waits).
    await waitFor(() => !core.planner.turnsBusy(planId), "the turn loop returned", 30_000);
    expect((await entries(core, planId)).some((e) => e.turn?.id === second.entry.id)).toBe(false);
    expect(model.requests).toHaveLength(1);

    await core.api.updateExperimentalSettings({ enableAgentChat: true });
    await waitFor(async () => (await answerTo(core, planId, second.entry.id)) !== undefined, "the waiting message taken up once on", 60_000);
    expect(model.requests).toHaveLength(2);
  });
});
