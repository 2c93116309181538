/**
 * Plan handoff in a real app core (issue #27), the real Copilot runtime answering through our fake OpenAI server: the
 * agent calls hand_off_plan and the new plan is listed with the brief above the chat plan's Markdown, one plan and one
 * card (with its link) however often the call is retried; the chat's own plan stays. The tool is offered only in an
 * agent chat whose profile allows it, never in a plan's own Planner conversation. A refused creation tells the model
 * why and leaves no card and no plan. The person's action (handOffAgentChatPlan) makes the same kind of plan and card,
 * the same ones when retried.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../shared/limits.js";
import { waitFor } from "../../shared/wait-for.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(): Promise<{ core: AppCore; model: FakeOpenAI }> {
  const model = await startFakeOpenAI({ models: ["fake-gpt"] });
  cleanups.push(() => model.close());
  const dir = tempDir("chopin-handoff-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({ dataDir: dir.path, mcpPort: 0, enableAgentChat: true, planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } } });
  cleanups.push(() => core.close());
  await core.api.updateSettings({ displayName: "Ada" });
  return { core, model };
}

const answers = async (core: AppCore, planId: DocumentId) => (await core.api.readConversation(planId, { limit: 200 })).entries.filter((e) => e.author.kind === "planner" && e.turn?.state === "answered");
const cards = async (core: AppCore, planId: DocumentId) => (await core.api.readConversation(planId, { limit: 200 })).entries.filter((e) => e.handoff !== undefined);
const toolNames = (request: FakeOpenAI["requests"][number]) => (request.body.tools ?? []).map((t) => t.function.name).sort();
const toolResults = (request: FakeOpenAI["requests"][number]) => request.body.messages.filter((m) => m.role === "tool").map((m) => messageText(m));
const BRIEF = "For the spring launch: the date is settled.";

/** A chat whose plan holds `markdown`, begun by a first message the agent answers with `read_plan` only. */
async function chatWithPlan(core: AppCore, model: FakeOpenAI, agentId: string, markdown: string): Promise<DocumentId> {
  model.script({ text: "Ready." });
  const planId = (await core.api.sendAgentChat(agentId, { text: "Let's plan", clientRequestId: "begin" })).planId as DocumentId;
  await waitFor(async () => (await answers(core, planId)).length === 1, "the first answer", 60_000);
  // The person's edit of the chat's plan, as their window would make it.
  const handle = await core.repo.find<{ text: string }>(planId);
  handle.change((doc) => A.updateText(doc, ["text"], markdown));
  await waitFor(async () => (await core.planner.documents.getContent(planId)).markdown === markdown, "the plan edited");
  return planId;
}

describe("plan handoff from an agent chat", () => {
  it("makes one listed plan and one card however often the agent's call is retried; the chat's plan stays", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const drafter = await core.api.createAgent({ name: "Drafter", tools: ["edit_plan", "hand_off_plan"] });
    const planId = await chatWithPlan(core, model, drafter.id, "# Launch\n\n- Pick a date\n");
    expect(toolNames(model.requests[0]!)).toEqual(["edit_plan", "hand_off_plan", "read_plan"]);

    const call = { name: "hand_off_plan", arguments: { title: "Spring launch", brief: BRIEF } };
    model.script({ toolCalls: [call] }, { toolCalls: [call] }, { text: "Handed off as Spring launch." });
    await core.api.sendAgentChat(drafter.id, { text: "Hand it off", clientRequestId: "handoff" });
    await waitFor(async () => (await answers(core, planId)).length === 2, "the handoff turn answered", 60_000);

    const listed = await core.api.listDocuments();
    expect(listed.map((d) => d.title)).toEqual(["Spring launch"]);
    const made = listed[0]!;
    expect((await core.planner.documents.getContent(made.id)).markdown).toBe(`${BRIEF}\n\n# Launch\n\n- Pick a date\n`);
    expect((await core.planner.documents.getContent(planId)).markdown).toBe("# Launch\n\n- Pick a date\n");
    // Both calls answered the same plan; one card names it, written by the agent's turn.
    const results = toolResults(model.requests.at(-1)!).slice(-2).map((text) => JSON.parse(text) as { documentId: string });
    expect(results.map((r) => r.documentId)).toEqual([made.id, made.id]);
    const written = await cards(core, planId);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ author: { kind: "planner" }, handoff: { documentId: made.id, title: "Spring launch" }, text: expect.stringContaining("Spring launch") });
    expect((await answers(core, planId)).at(-1)).toMatchObject({ tools: [{ name: "hand_off_plan", status: "done" }, { name: "hand_off_plan", status: "done" }] });
    // The card is the chat's: its plan's entry, read through the chat.
    expect((await core.api.readAgentChat(drafter.id))!.page!.entries.some((e) => e.handoff?.documentId === made.id)).toBe(true);
  });

  it("is offered only in an agent chat whose profile allows it, never in a plan's own Planner conversation", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ text: "Hello." });
    const chat = (await core.api.sendAgentChat(scout.id, { text: "Hi", clientRequestId: "hi" })).planId as DocumentId;
    await waitFor(async () => (await answers(core, chat)).length === 1, "the chat answered", 60_000);
    expect(toolNames(model.requests[0]!)).not.toContain("hand_off_plan");

    const plan = await core.api.createDocument({ title: "Ordinary plan", markdown: "# Plan" });
    model.script({ text: "Planner here." });
    await core.api.postMessage(plan.id, { text: "Help", to: "planner", clientRequestId: "p-1" });
    await waitFor(async () => (await answers(core, plan.id as DocumentId)).length === 1, "the Planner answered", 60_000);
    expect(toolNames(model.requests[1]!)).toEqual(["edit_plan", "read_plan", "read_reference"]);
  });

  it("tells the model why a refused creation failed, and writes no card and no plan", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const drafter = await core.api.createAgent({ name: "Drafter", tools: ["hand_off_plan"] });
    // A drafted plan so large that the brief above it makes a plan no document can hold.
    const planId = await chatWithPlan(core, model, drafter.id, "x".repeat(MAX_DOCUMENT_MARKDOWN_BYTES - 2));
    model.script({ toolCalls: [{ name: "hand_off_plan", arguments: { title: "Too big", brief: BRIEF } }] }, { text: "It could not be handed off." });
    await core.api.sendAgentChat(drafter.id, { text: "Hand it off", clientRequestId: "handoff" });
    await waitFor(async () => (await answers(core, planId)).length === 2, "the turn answered", 60_000);
    expect(JSON.parse(toolResults(model.requests.at(-1)!).at(-1)!)).toMatchObject({ ok: false, error: { code: "too-large", message: expect.stringMatching(/^The plan was not handed off: /) } });
    expect(await cards(core, planId)).toEqual([]);
    expect(await core.api.listDocuments()).toEqual([]);
    expect((await answers(core, planId)).at(-1)).toMatchObject({ tools: [{ name: "hand_off_plan", status: "failed", note: expect.stringContaining("too-large") }] });
  });

  it("lets the person hand the plan off: the plan then the card, the same ones for a retry", { timeout: 120_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    await expect(core.api.handOffAgentChatPlan(scout.id, { title: "T", brief: "B", clientRequestId: "h" })).rejects.toMatchObject({ code: "not-found" });
    const planId = await chatWithPlan(core, model, scout.id, "# Draft\n");
    const first = await core.api.handOffAgentChatPlan(scout.id, { title: " Team plan ", brief: BRIEF, clientRequestId: "h-1" });
    expect(first.entry).toMatchObject({ author: { kind: "person", name: "Ada" }, mine: true, handoff: { documentId: first.documentId, title: "Team plan" } });
    expect((await core.planner.documents.getContent(first.documentId)).markdown).toBe(`${BRIEF}\n\n# Draft\n`);
    const again = await core.api.handOffAgentChatPlan(scout.id, { title: " Team plan ", brief: BRIEF, clientRequestId: "h-1" });
    expect(again).toEqual(first);
    expect((await core.api.listDocuments()).map((d) => d.id)).toEqual([first.documentId]);
    expect((await cards(core, planId)).map((e) => e.id)).toEqual([first.entry.id]);
  });
});
