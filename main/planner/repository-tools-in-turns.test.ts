/**
 * The repository tools in the Planner's turns (issues #3, #26), in a real app core signed in to the fake GitHub as
 * alice, with the real Copilot runtime talking to the fake OpenAI server: in a plan bound to a repository the model can
 * call read_repository_file, and it reads the default branch's commit captured when its session was made, also after
 * the branch moved; the session after `/new` reads the new head. A plan bound to no repository offers no repository
 * tool, and a call to one reaches no handler and no GitHub. When the pin cannot be made, the session goes on without
 * repository tools, and the model and the people are told why. The permission gate is asked before every repository
 * call as before every plan call: a denied one reaches neither its handler nor GitHub.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { defaultFixtures, PLANETS } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import type { RecordedRequest } from "../../test-support/fake-openai/types.js";
import type { PlannerTurnProgress } from "../../shared/api.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { startToolHarness } from "../github/repository-tools/tool-test-context.js";
import { tempDir } from "../sync/test-helpers.js";
import { CopilotRuntime, type GateAnswer, type PlannerEvent } from "./copilot-runtime.js";
import { sessionTools } from "./session-tools.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(options: { bind: boolean }): Promise<{ core: AppCore; model: FakeOpenAI; github: FakeGitHub; id: DocumentId }> {
  const fixtures = defaultFixtures();
  const github = await startFakeGitHub({ fixtures });
  cleanups.push(() => github.close());
  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  const dir = tempDir("chopin-repo-turns-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({
    dataDir: dir.path,
    mcpPort: 0,
    githubClientId: fixtures.clientId,
    githubApiUrl: github.url,
    githubWebUrl: github.url,
    planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } },
  });
  cleanups.push(() => core.close());
  const { deviceFlow } = await core.api.startSignIn();
  github.state.approveDevice(deviceFlow!.userCode, "alice");
  await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in", 30_000);
  const plan = await core.api.createDocument({ title: "Orbits", markdown: "# Orbits\n\nExplain the orbit helper.\n" });
  if (options.bind) await core.api.bindRepository(plan.id, { installationId: 71, repositoryNodeId: github.state.repoById(PLANETS.id)!.nodeId });
  return { core, model, github, id: plan.id as DocumentId };
}

const toolNames = (request: RecordedRequest) => (request.body.tools ?? []).map((t) => t.function.name);
const systemMessage = (request: RecordedRequest) => messageText(request.body.messages[0]);
const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;
/** The Planner's entries after the marks of turns begun. */
const plannerEntries = async (core: AppCore, id: DocumentId) => (await core.api.readConversation(id)).entries.filter((e) => e.author.kind === "planner" && e.turn?.state !== "started");
const readmeCall = { toolCalls: [{ name: "read_repository_file", arguments: { path: "README.md" } }] };

describe("the repository tools in the Planner's turns", () => {
  it("read the commit pinned when the session was made, also after the branch moved; the session after /new reads the new head", { timeout: 120_000 }, async () => {
    const { core, model, github, id } = await setup({ bind: true });
    const head = github.state.repoById(PLANETS.id)!.branches.main;
    model.script(readmeCall, { text: "It catalogues planets." }, readmeCall, { text: "Still a catalogue." });
    const progress: PlannerTurnProgress[] = [];
    core.events.on("planner-turn", (p) => progress.push(p));
    await core.api.postMessage(id, { text: "@Planner what is the README about?", to: "planner", clientRequestId: "q-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "the first answer", 60_000);
    const [first, afterFirstRead] = model.requests;
    expect(toolNames(first!)).toEqual(expect.arrayContaining(["read_plan", "edit_plan", "read_repository_file", "list_repository_tree", "repository_history", "search_repository", "list_pull_requests", "pull_request_read"]));
    expect(systemMessage(first!)).toContain(`octo-org/planets. The repository tools`);
    expect(systemMessage(first!)).toContain(`at commit ${head}, the head of its default branch main`);
    expect(lastToolResult(afterFirstRead!)).toEqual({ ok: true, value: expect.objectContaining({ path: "README.md", commitSha: head, content: "# Planets\n\nA catalogue of planets." }) });
    expect(progress.find((p) => p.tools.length > 0 && p.done)?.tools).toEqual([expect.objectContaining({ name: "read_repository_file", status: "done" })]);

    // The default branch moves while the session lives: the session still reads its pin.
    const moved = github.state.push(PLANETS.id, "main", { "README.md": "# Planets\n\nNow with dwarf planets.\n" }, "Rewrite the README");
    await core.api.postMessage(id, { text: "@Planner and now?", to: "planner", clientRequestId: "q-2" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 2, "the second answer", 60_000);
    expect(core.planner.runtimeSessions()).toBe(1);
    expect(lastToolResult(model.requests[3]!)).toEqual({ ok: true, value: expect.objectContaining({ commitSha: head, content: "# Planets\n\nA catalogue of planets." }) });

    // `/new`: the next session pins the head as it is when that session is made.
    await core.api.postMessage(id, { text: "/new", to: "planner", clientRequestId: "new-1" });
    await waitFor(async () => (await core.api.readConversation(id)).entries.some((e) => e.boundary), "the boundary", 60_000);
    model.script(readmeCall, { text: "Dwarf planets too." });
    await core.api.postMessage(id, { text: "@Planner read it again", to: "planner", clientRequestId: "q-3" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.text === "Dwarf planets too."), "the answer after /new", 60_000);
    expect(systemMessage(model.requests[4]!)).toContain(`at commit ${moved},`);
    expect(lastToolResult(model.requests[5]!)).toEqual({ ok: true, value: expect.objectContaining({ commitSha: moved, content: "# Planets\n\nNow with dwarf planets." }) });
  });

  it("offers a plan bound to no repository no repository tool: a call to one reaches no handler and no GitHub", { timeout: 90_000 }, async () => {
    const { core, model, github, id } = await setup({ bind: false });
    model.script(readmeCall, { text: "I cannot read repositories here." });
    const progress: PlannerTurnProgress[] = [];
    core.events.on("planner-turn", (p) => progress.push(p));
    const contentsAsked = () => github.state.requests.filter((r) => r.path.includes("/contents/") || r.path.includes("/branches/")).length;
    await core.api.postMessage(id, { text: "@Planner what is the README about?", to: "planner", clientRequestId: "u-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "the answer", 60_000);
    const [first, afterCall] = model.requests;
    expect(toolNames(first!).sort()).toEqual(["edit_plan", "read_plan", "read_reference"]);
    expect(systemMessage(first!)).not.toMatch(/repository/);
    // The runtime refused the unknown tool itself: nothing of ours started, nothing was read from GitHub.
    expect(messageText(afterCall!.body.messages.filter((m) => m.role === "tool").at(-1))).toMatch(/^Tool 'read_repository_file' does not exist\./);
    expect(progress.flatMap((p) => p.tools)).toEqual([]);
    expect(contentsAsked()).toBe(0);
  });

  it("goes on without repository tools when the pin cannot be made, saying why; /new tries again", { timeout: 120_000 }, async () => {
    const { core, model, github, id } = await setup({ bind: true });
    const remove = github.inject({ kind: "status", status: 502 }, { pathPrefix: "/repos/octo-org/planets/branches" });
    model.script({ text: "I cannot read the repository now." });
    await core.api.postMessage(id, { text: "@Planner what is the README about?", to: "planner", clientRequestId: "f-1" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.turn?.state === "answered"), "the answer", 60_000);
    const why = "GitHub could not be asked for the default branch's commit: GitHub answered with a server error (502).";
    expect((await plannerEntries(core, id)).map((e) => e.text)).toEqual([
      `The Planner cannot read octo-org/planets in this session: ${why} Send /new to start a session that tries again.`,
      "I cannot read the repository now.",
    ]);
    expect(toolNames(model.requests[0]!).sort()).toEqual(["edit_plan", "read_plan", "read_reference"]);
    expect(systemMessage(model.requests[0]!)).toContain(`no repository tools are available in this session: ${why}`);

    remove();
    await core.api.postMessage(id, { text: "/new", to: "planner", clientRequestId: "new-f" });
    await waitFor(async () => (await core.api.readConversation(id)).entries.some((e) => e.boundary), "the boundary", 60_000);
    model.script(readmeCall, { text: "It catalogues planets." });
    await core.api.postMessage(id, { text: "@Planner try again", to: "planner", clientRequestId: "f-2" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.text === "It catalogues planets."), "the answer after /new", 60_000);
    expect(toolNames(model.requests[1]!)).toContain("read_repository_file");
    expect(lastToolResult(model.requests[2]!)).toMatchObject({ ok: true, value: { content: "# Planets\n\nA catalogue of planets." } });
    // The notice was said once, for the session that had no pin.
    expect((await plannerEntries(core, id)).filter((e) => e.text.startsWith("The Planner cannot read"))).toHaveLength(1);
  });

  it("asks the permission gate before every repository call: a denied one reaches neither its handler nor GitHub", { timeout: 90_000 }, async () => {
    const h = await startToolHarness();
    cleanups.push(() => h.fake.close());
    const model = await startFakeOpenAI();
    cleanups.push(() => model.close());
    const dir = tempDir("chopin-repo-gate-");
    cleanups.push(() => dir.remove());
    const runtime = new CopilotRuntime({ baseDirectory: dir.path });
    cleanups.push(() => runtime.stop());
    const { binding } = h.planets;
    const repository = async () => ({ owner: binding.owner, name: binding.name, nodeId: binding.nodeId, defaultBranch: binding.defaultBranch, repositoryId: binding.id, installationId: binding.installationId });
    const given = await sessionTools("plan-1", { plan: [], repository, rest: h.rest });
    const asked: unknown[] = [];
    const events: PlannerEvent[] = [];
    const gate = async (name: string, args: unknown): Promise<GateAnswer> => {
      asked.push([name, args]);
      return name === "read_repository_file" ? { allowed: false, check: "repository-access", reason: "alice has read access to octo-org/planets; push or admin is required." } : { allowed: true };
    };
    const session = await runtime.session({ provider: { type: "openai", model: "fake-gpt", baseUrl: model.url, apiKey: model.apiKey }, systemMessage: "You are the Planner.", tools: given.tools, gate, onEvent: (e) => events.push(e) });
    model.script(readmeCall, { toolCalls: [{ name: "repository_history", arguments: {} }] }, { text: "Done." });
    const contentsBefore = h.fake.state.countRequests("/repos/octo-org/planets/contents");
    await session.send("Read the README, then the history.");
    expect(asked).toEqual([["read_repository_file", { path: "README.md" }], ["repository_history", {}]]);
    expect(events).toContainEqual({ type: "tool-denied", name: "read_repository_file", check: "repository-access", reason: "alice has read access to octo-org/planets; push or admin is required." });
    expect(events.filter((e) => e.type === "tool-start").map((e) => (e as { name: string }).name)).toEqual(["repository_history"]);
    expect(h.fake.state.countRequests("/repos/octo-org/planets/contents")).toBe(contentsBefore);
    expect(lastToolResult(model.requests[2]!)).toMatchObject({ ok: true, value: { commitSha: h.planets.pin.commitSha } });
  });
});
