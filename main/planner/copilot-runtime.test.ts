/**
 * The real Copilot runtime (the SDK's bundled one, offline) against our fake OpenAI-compatible server (issue #26): it
 * starts only with the first session; the model is offered only our tools and our system message; a streamed answer
 * arrives as deltas and a message, and send resolves once the turn is over; an allowed tool call runs its handler
 * between our start and completion; a call the gate denies reaches no handler, makes no start or completion, and the
 * model is told which check refused it; a provider failure is an error event; stop ends it all.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { tempDir } from "../sync/test-helpers.js";
import { CopilotRuntime, type GateAnswer, type PlannerEvent, type PlannerTool } from "./copilot-runtime.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(gate: (name: string, args: unknown) => Promise<GateAnswer> = async () => ({ allowed: true })) {
  const fake = await startFakeOpenAI();
  cleanups.push(() => fake.close());
  const dir = tempDir("chopin-copilot-");
  cleanups.push(() => dir.remove());
  const runtime = new CopilotRuntime({ baseDirectory: dir.path });
  cleanups.push(() => runtime.stop());
  const events: PlannerEvent[] = [];
  const calls: unknown[] = [];
  const readPlan: PlannerTool<{ section?: string }> = {
    name: "read_plan",
    description: "Read the plan.",
    parameters: z.object({ section: z.string().optional() }),
    handler: async (args) => {
      calls.push(args);
      return { markdown: "# Launch" };
    },
  };
  const open = () =>
    runtime.session({
      provider: { type: "openai", model: "fake-gpt", baseUrl: fake.url, apiKey: fake.apiKey },
      systemMessage: "You are the Planner of this plan.",
      tools: [readPlan as PlannerTool<never>],
      gate,
      onEvent: (event) => events.push(event),
    });
  return { fake, runtime, events, calls, open };
}

const toolMessages = (fake: FakeOpenAI) => fake.requests.flatMap((r) => r.body.messages.filter((m) => m.role === "tool").map((m) => messageText(m)));

describe("the Copilot runtime", () => {
  it("starts with the first session, offers only our tools and system message, and streams an answer", { timeout: 60_000 }, async () => {
    const { fake, runtime, events, open } = await setup();
    expect(runtime.started).toBe(false);
    fake.script({ text: "The plan **ships** in May.", chunks: 3 });
    const session = await open();
    expect(runtime.started).toBe(true);
    await session.send("Ada (@ada) to the Planner: when do we ship?");
    const [request] = fake.requests;
    expect(request!.body.tools?.map((t) => t.function.name)).toEqual(["read_plan"]);
    expect(messageText(request!.body.messages[0])).toBe("You are the Planner of this plan.");
    expect(request!.body.messages.some((m) => messageText(m).includes("when do we ship?"))).toBe(true);
    expect(events.filter((e) => e.type === "text-delta").map((e) => (e as { delta: string }).delta).join("")).toBe("The plan **ships** in May.");
    expect(events).toContainEqual(expect.objectContaining({ type: "message", content: "The plan **ships** in May." }));
    expect(events.at(-1)).toEqual({ type: "idle", aborted: false });
  });

  it("runs an allowed tool call between our start and completion, and the model reads its result", { timeout: 60_000 }, async () => {
    const { fake, events, calls, open } = await setup();
    fake.script({ toolCalls: [{ name: "read_plan", arguments: { section: "dates" } }] }, { text: "Read it." });
    const session = await open();
    await session.send("Planner, read the plan.");
    expect(calls).toEqual([{ section: "dates" }]);
    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf("tool-start")).toBeLessThan(kinds.indexOf("tool-complete"));
    expect(events).toContainEqual(expect.objectContaining({ type: "tool-complete", name: "read_plan", ok: true }));
    expect(toolMessages(fake)).toEqual([JSON.stringify({ markdown: "# Launch" })]);
  });

  it("keeps a denied call from its handler: no start, no completion, a denial naming the check, and the model is told", { timeout: 60_000 }, async () => {
    const asked: unknown[] = [];
    const { fake, events, calls, open } = await setup(async (name, args) => {
      asked.push([name, args]);
      return { allowed: false, check: "ownership-generation", reason: "This app no longer runs the Planner here." };
    });
    fake.script({ toolCalls: [{ name: "read_plan", arguments: {} }] }, { text: "I could not read it." });
    const session = await open();
    await session.send("Planner, read the plan.");
    expect(asked).toEqual([["read_plan", {}]]);
    expect(calls).toEqual([]);
    expect(events.some((e) => e.type === "tool-start" || e.type === "tool-complete")).toBe(false);
    expect(events).toContainEqual({ type: "tool-denied", name: "read_plan", check: "ownership-generation", reason: "This app no longer runs the Planner here." });
    expect(toolMessages(fake).join("\n")).toMatch(/ownership-generation/);
  });

  it("reports a provider's refusal as an error and ends the turn; stop ends every session and the runtime", { timeout: 60_000 }, async () => {
    const { fake, runtime, events, open } = await setup();
    fake.script({ error: 400, message: "The model does not exist." });
    const session = await open();
    await session.send("Planner?");
    expect(events.find((e) => e.type === "error")).toMatchObject({ type: "error", message: expect.any(String) });
    await runtime.stop();
    expect(runtime.started).toBe(false);
    await expect(session.send("again")).rejects.toThrow(/discarded/);
  });
});
