/**
 * The Planner's plan tools end to end (issue #26): a real app core runs the Planner in a private plan, the real Copilot
 * runtime drives the model (our fake OpenAI server), the model reads the plan and edits it by its blocks; the edit
 * lands as the Planner's fenced write, attributed to the Planner; a stale revision refuses the whole batch with the
 * current blocks; once the app no longer runs the Planner, an edit is not made and the model is told.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI } from "../../test-support/fake-openai/server.js";
import type { RecordedRequest } from "../../test-support/fake-openai/types.js";
import { createAppCore } from "../core/app-core.js";
import { tempDir } from "../sync/test-helpers.js";
import { CopilotRuntime } from "./copilot-runtime.js";
import { planPublisher } from "./plan-publisher.js";
import { planTools } from "./plan-tools.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The JSON the last tool message of a request carries (what our tool answered the model). */
const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;

async function setup() {
  const fixtures = defaultFixtures();
  const github = await startFakeGitHub({ fixtures });
  cleanups.push(() => github.close());
  const dir = tempDir("chopin-plan-tools-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({ dataDir: dir.path, mcpPort: 0, githubClientId: fixtures.clientId, githubApiUrl: github.url, githubWebUrl: github.url, planner: { turns: false } });
  cleanups.push(() => core.close());
  const { deviceFlow } = await core.api.startSignIn();
  github.state.approveDevice(deviceFlow!.userCode, "alice");
  await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in", 30_000);
  const plan = await core.api.createDocument({ title: "Launch", markdown: "# Launch\n\nWe ship in May.\n" });
  const id = plan.id as DocumentId;
  await core.api.postMessage(id, { text: "@Planner add a risks section", to: "planner", clientRequestId: "ask" });
  await waitFor(async () => (await core.api.getPlannerState(id)).ownedHere, "this app runs the Planner", 30_000);

  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  const runtime = new CopilotRuntime({ baseDirectory: `${dir.path}/copilot` });
  cleanups.push(() => runtime.stop());
  const session = await runtime.session({
    provider: { type: "openai", model: "fake-gpt", baseUrl: model.url, apiKey: model.apiKey },
    systemMessage: "You are the Planner.",
    tools: planTools(planPublisher({ documents: core.planner.documents, writes: core.planner.writes }, id)),
    gate: async () => ({ allowed: true }),
    onEvent: () => undefined,
  });
  return { core, id, model, session };
}

describe("read_plan and edit_plan", () => {
  it("read the plan by blocks and edit it as the Planner's fenced write", { timeout: 90_000 }, async () => {
    const { core, id, model, session } = await setup();
    model.script(
      { toolCalls: [{ name: "read_plan", arguments: {} }] },
      (request) => {
        const read = lastToolResult(request);
        return { toolCalls: [{ name: "edit_plan", arguments: { revision: read.revision, operations: [{ op: "insert", after: { index: 1, digest: read.blocks[1].digest }, markdown: "## Risks\n\n- Late hardware" }] } }] };
      },
      { text: "Added the risks." },
    );
    await session.send("Ada: add a risks section");
    const read = lastToolResult(model.requests[1]!);
    expect(read.blocks.map((b: { kind: string }) => b.kind)).toEqual(["heading", "paragraph"]);
    const edited = lastToolResult(model.requests[2]!);
    expect(edited).toMatchObject({ ok: true, blocks: [{ kind: "heading" }, { kind: "paragraph" }, { kind: "heading" }, { kind: "list" }] });
    const { markdown, detail } = await core.planner.documents.getContent(id);
    expect(markdown).toBe("# Launch\n\nWe ship in May.\n\n## Risks\n\n- Late hardware\n");
    expect(edited.revision).toBe(detail.revision);
    const versions = await core.api.listVersions(id);
    expect(versions[0]).toMatchObject({ authors: ["Planner (agent)"], summary: "+27 characters" });
  });

  it("refuse a stale revision with the current blocks, and make no edit once this app no longer runs the Planner", { timeout: 90_000 }, async () => {
    const { core, id, model, session } = await setup();
    model.script(
      { toolCalls: [{ name: "edit_plan", arguments: { revision: "0".repeat(64), operations: [{ op: "delete", block: { index: 0, digest: "0".repeat(64) } }] } }] },
      { text: "It changed." },
    );
    await session.send("Ada: delete the heading");
    expect(lastToolResult(model.requests[1]!)).toMatchObject({ ok: false, refusal: "stale-revision", blocks: [{ index: 0 }, { index: 1 }] });

    // Signed out: this app runs the Planner nowhere (and may not take it back while the message still waits).
    await core.api.signOut();
    await waitFor(async () => !(await core.api.getPlannerState(id)).ownedHere, "released", 30_000);
    model.script(
      { toolCalls: [{ name: "read_plan", arguments: {} }] },
      (request) => {
        const read = lastToolResult(request);
        return { toolCalls: [{ name: "edit_plan", arguments: { revision: read.revision, operations: [{ op: "replace", block: { index: 1, digest: read.blocks[1].digest }, markdown: "We ship in June." }] } }] };
      },
      { text: "Could not." },
    );
    await session.send("Ada: move it to June");
    expect(lastToolResult(model.requests.at(-1)!)).toMatchObject({ ok: false, refusal: "refused", message: expect.stringMatching(/does not run the Planner/) });
    expect((await core.planner.documents.getContent(id)).markdown).toBe("# Launch\n\nWe ship in May.\n");
  });
});
