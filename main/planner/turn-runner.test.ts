/**
 * The Planner's turns in a real app core (issue #26), the real Copilot runtime talking to our fake OpenAI server as the
 * configured provider (no GitHub sign-in needed for that): a message to the Planner makes this app claim the private
 * plan and run a turn that reads and edits the plan and answers in the conversation, naming the message it answers;
 * messages sent meanwhile are answered one turn after another, in order; a provider's failure is the answer the
 * people see, once, marked failed (a retry is a new message, answered by a new turn); with the Planner off (AGENT=off) nothing is claimed and the runtime never starts.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import type { RecordedRequest } from "../../test-support/fake-openai/types.js";
import { createAppCore } from "../core/app-core.js";
import type { PlannerTurnProgress } from "../../shared/api.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { GITHUB_TOKEN_REFRESH_LEAD_MS } from "../util/limits.js";
import { PLANNER_LEASE_TTL_MS } from "../../shared/limits.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(options: { off?: boolean; github?: { clientId: string; url: string }; githubToken?: string } = {}): Promise<{ core: AppCore; model: FakeOpenAI; id: DocumentId }> {
  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  const dir = tempDir("chopin-turns-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({
    dataDir: dir.path,
    mcpPort: 0,
    planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey }, ...(options.off ? { off: true } : {}) },
    ...(options.github ? { githubClientId: options.github.clientId, githubApiUrl: options.github.url, githubWebUrl: options.github.url } : {}),
    ...(options.githubToken ? { githubToken: options.githubToken } : {}),
  });
  cleanups.push(() => core.close());
  await core.api.updateSettings({ displayName: "Ada" });
  const plan = await core.api.createDocument({ title: "Launch", markdown: "# Launch\n\nWe ship in May.\n" });
  return { core, model, id: plan.id as DocumentId };
}

const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;
/** The Planner's answers (not the marks of turns begun). */
const plannerEntries = async (core: AppCore, id: DocumentId) => (await core.api.readConversation(id)).entries.filter((e) => e.author.kind === "planner" && e.turn?.state !== "started");

describe("the Planner's turns", () => {
  it("claims on a message, reads and edits the plan, and answers it in the conversation", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    model.script(
      { toolCalls: [{ name: "read_plan", arguments: {} }] },
      (request) => {
        const read = lastToolResult(request);
        return { toolCalls: [{ name: "edit_plan", arguments: { revision: read.revision, operations: [{ op: "insert", after: { index: 1, digest: read.blocks[1].digest }, markdown: "## Risks\n\n- Late hardware" }] } }] };
      },
      { text: "I added a **Risks** section.", chunks: 3 },
    );
    const progress: PlannerTurnProgress[] = [];
    core.events.on("planner-turn", (p) => progress.push(p));
    await core.api.postMessage(id, { text: "@Planner add a risks section", to: "planner", clientRequestId: "ask-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "the Planner answered", 60_000);
    // This app's windows saw the turn as it went: both tool calls done, the answer streamed, then the end.
    const beforeEnd = progress.at(-2)!;
    expect(beforeEnd.tools.map((t) => [t.name, t.status])).toEqual([["read_plan", "done"], ["edit_plan", "done"]]);
    expect(beforeEnd.text).toContain("I added a **Risks** section.");
    expect(progress.at(-1)).toMatchObject({ documentId: id, done: true });
    const [answer] = await plannerEntries(core, id);
    expect(answer).toMatchObject({ text: "I added a **Risks** section.", to: "room" });
    // The answer records what the turn did, for the transcript and agents reading it.
    expect(answer!.tools).toEqual([{ name: "read_plan", status: "done" }, { name: "edit_plan", status: "done" }]);
    expect((await core.planner.documents.getContent(id)).markdown).toBe("# Launch\n\nWe ship in May.\n\n## Risks\n\n- Late hardware\n");
    expect(await core.api.getPlannerState(id)).toMatchObject({ state: "running-here", ownershipGeneration: 1, keeper: "this-device" });
    // The model was given the person's message with their name, and never the plan itself in the prompt.
    const prompt = model.requests[0]!.body.messages.filter((m) => m.role === "user").map(messageText).join("\n");
    expect(prompt).toContain("[Ada to the Planner]\n│ @Planner add a risks section");
    expect(prompt).not.toContain("We ship in May.");
    // Answered once: the answer names the message, and no further turn runs for it.
    const turns = model.requests.length;
    await core.api.postMessage(id, { text: "Thanks, all.", to: "room", clientRequestId: "room-1" });
    await waitFor(async () => (await core.api.readConversation(id)).total === 4, "the room message is in", 30_000);
    expect(model.requests.length).toBe(turns);
  });

  it("answers messages sent meanwhile one turn after another, in order, each from the messages since it last spoke", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    model.script({ text: "First answer.", chunks: 2, delayMs: 100 }, { text: "Second answer." });
    await core.api.postMessage(id, { text: "@Planner one", to: "planner", clientRequestId: "q-1" });
    await core.api.postMessage(id, { text: "@Planner two", to: "planner", clientRequestId: "q-2" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 2, "both answered", 60_000);
    expect((await plannerEntries(core, id)).map((e) => e.text)).toEqual(["First answer.", "Second answer."]);
    const secondPrompt = model.requests[1]!.body.messages.filter((m) => m.role === "user").map(messageText).at(-1)!;
    expect(secondPrompt).toContain("@Planner two");
    expect(secondPrompt).not.toContain("@Planner one");
  });

  it("answers with the provider's failure, once", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    model.script({ error: 400, message: "This model is not available to you." });
    await core.api.postMessage(id, { text: "@Planner hello", to: "planner", clientRequestId: "f-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "the failure shown", 60_000);
    const [failure] = await plannerEntries(core, id);
    expect(failure!.text).toMatch(/^The model provider failed, so the Planner could not answer: /);
    // Marked failed (the window offers the asker a retry), and so read by agents over MCP too.
    expect(failure).toMatchObject({ failed: true, turn: { state: "answered" } });
    expect(model.requests.length).toBe(1);
    // The window's retry: the asked text again as a new message keyed by the failed turn, answered by a new turn; a
    // second click is the same message, so one more turn in all.
    const turnId = failure!.turn!.id;
    model.script({ text: "Hello, Ada." });
    const retry = await core.api.postMessage(id, { text: "@Planner hello", to: "planner", clientRequestId: `retry:${turnId}` });
    expect(retry.created).toBe(true);
    expect((await core.api.postMessage(id, { text: "@Planner hello", to: "planner", clientRequestId: `retry:${turnId}` })).created).toBe(false);
    await waitFor(async () => (await plannerEntries(core, id)).length === 2, "the retry answered", 60_000);
    const answer = (await plannerEntries(core, id))[1]!;
    expect(answer).toMatchObject({ text: "Hello, Ada.", turn: { id: retry.entry.id } });
    expect(answer.failed).toBeUndefined();
    expect(model.requests.length).toBe(2);
  });

  it("marks a turn begun, and one interrupted by a reset stays so: never run again, while a later message is answered", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    model.script({ hang: true });
    const asked = await core.api.postMessage(id, { text: "@Planner a long job", to: "planner", clientRequestId: "long" });
    await waitFor(async () => (await core.api.readConversation(id)).entries.some((e) => e.turn?.state === "started" && e.turn.id === asked.entry.id), "the turn marked begun", 60_000);
    await waitFor(() => model.requests.length === 1, "the model asked", 30_000);
    await core.api.resetPlannerOwnership(id);
    model.script({ text: "Answered the second." });
    await core.api.postMessage(id, { text: "@Planner something short", to: "planner", clientRequestId: "short" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "the second answered", 60_000);
    const entries = (await core.api.readConversation(id)).entries;
    expect(entries.filter((e) => e.turn?.id === asked.entry.id).map((e) => e.turn!.state)).toEqual(["started"]);
    expect((await plannerEntries(core, id))[0]).toMatchObject({ text: "Answered the second.", turn: { state: "answered", ownershipGeneration: 2 } });
    expect(model.requests.length).toBe(2);
  });

  it("keeps one session across turns, and makes a fresh one after the GitHub credential is refreshed", { timeout: 120_000 }, async () => {
    const fixtures = { ...defaultFixtures(), accessTokenLifetimeSeconds: GITHUB_TOKEN_REFRESH_LEAD_MS / 1000 + 8 };
    const github = await startFakeGitHub({ fixtures });
    cleanups.push(() => github.close());
    const { core, model, id } = await setup({ github: { clientId: fixtures.clientId, url: github.url } });
    const { deviceFlow } = await core.api.startSignIn();
    github.state.approveDevice(deviceFlow!.userCode, "alice");
    await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in", 30_000);
    const revision = (await core.api.getAuthState()).credentialRevision;
    model.script({ text: "One." }, { text: "Two." }, { text: "Three." });
    await core.api.postMessage(id, { text: "@Planner one", to: "planner", clientRequestId: "r-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "first answered", 60_000);
    await core.api.postMessage(id, { text: "@Planner two", to: "planner", clientRequestId: "r-2" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 2, "second answered", 60_000);
    // The same session: the model is sent the whole exchange so far.
    expect(model.requests[1]!.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(core.planner.runtimeSessions()).toBe(1);
    await waitFor(async () => (await core.api.getAuthState()).credentialRevision > revision, "the credential refreshed", 60_000);
    // The session made with the old revision was ended when the refresh began, before any new turn.
    await waitFor(() => core.planner.runtimeSessions() === 0, "the old session ended", 30_000);
    await core.api.postMessage(id, { text: "@Planner three", to: "planner", clientRequestId: "r-3" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 3, "third answered", 60_000);
    // A fresh session: only the system message and the bootstrap.
    expect(model.requests[2]!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messageText(model.requests[2]!.body.messages[1])).toContain("@Planner three");
  });

  it("processes /new at a turn boundary without the model: a boundary one session generation up, once, and a fresh session after it", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    model.script({ text: "Before." }, { text: "After." });
    await core.api.postMessage(id, { text: "@Planner remember the launch date", to: "planner", clientRequestId: "b-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "answered", 60_000);
    await core.api.postMessage(id, { text: "/new", to: "planner", clientRequestId: "new-1" });
    await waitFor(async () => (await core.api.readConversation(id)).entries.some((e) => e.boundary), "the boundary", 60_000);
    expect(model.requests.length).toBe(1);
    expect(await core.api.getPlannerState(id)).toMatchObject({ sessionGeneration: 1 });
    // A retry of the same command is the same message: no second boundary.
    await core.api.postMessage(id, { text: "/new", to: "planner", clientRequestId: "new-1" });
    await core.api.postMessage(id, { text: "@Planner what now?", to: "planner", clientRequestId: "b-2" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.text === "After."), "answered after", 60_000);
    expect((await core.api.readConversation(id)).entries.filter((e) => e.boundary)).toHaveLength(1);
    const fresh = model.requests[1]!.body.messages;
    expect(fresh.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messageText(fresh[1])).toContain("@Planner what now?");
    expect(messageText(fresh[1])).not.toContain("remember the launch date");
  });

  it("stops a running turn when an editor asks, saying who and nothing of its partial words; a withdrawn message is never run", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    // The model is mid-stream (held after its first pieces) when the stop comes.
    model.script({ text: "Half of a long answer, and then the rest of it.", chunks: 4, holdAfterChunks: 2 });
    const long = await core.api.postMessage(id, { text: "@Planner a long job", to: "planner", clientRequestId: "l-1" });
    await model.whenHeld();
    const queued = await core.api.postMessage(id, { text: "@Planner never mind this", to: "planner", clientRequestId: "l-2" });
    expect(await core.api.withdrawMessage(id, queued.entry.id)).toMatchObject({ withdrawn: true });
    await expect(core.api.withdrawMessage(id, long.entry.id)).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/already taken this message up/) });
    expect(await core.api.abortPlannerTurn(id)).toMatchObject({ abortTurn: long.entry.id, author: { kind: "person", name: "Ada" } });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.turn?.id === long.entry.id), "the stopped turn answered", 60_000);
    expect((await plannerEntries(core, id)).find((e) => e.turn?.id === long.entry.id)!.text).toBe("*Stopped by Ada before the Planner finished.*");
    expect((await core.api.readConversation(id)).entries.filter((e) => e.text.includes("Half of a long"))).toEqual([]);
    await expect(core.api.abortPlannerTurn(id)).rejects.toMatchObject({ code: "not-found" });
    model.script({ text: "Third." });
    await core.api.postMessage(id, { text: "@Planner third", to: "planner", clientRequestId: "l-3" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.text === "Third."), "the third answered", 60_000);
    // The withdrawn message was skipped: two requests in all, the stopped one and the third, in a fresh session (the
    // stopped one's was discarded with the stop).
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messageText(model.requests[1]!.body.messages.at(-1))).toContain("@Planner third");
  });

  it("with the Planner off claims nothing and starts no runtime; the rest works", { timeout: 60_000 }, async () => {
    const { core, model, id } = await setup({ off: true });
    await core.api.postMessage(id, { text: "@Planner hello", to: "planner", clientRequestId: "o-1" });
    await waitFor(async () => (await core.api.getPlannerState(id)).refusal !== undefined, "the refusal", 30_000);
    expect(await core.api.getPlannerState(id)).toMatchObject({ state: "unowned", refusal: { code: "not-configured", message: expect.stringMatching(/turned off/) } });
    expect(core.planner.runtimeStarted()).toBe(false);
    expect(model.requests).toEqual([]);
  });

  it("records a tool call the gate refused as a denial entry naming the check, and the call as never made", { timeout: 90_000 }, async () => {
    const github = await startFakeGitHub({ fixtures: defaultFixtures() });
    cleanups.push(() => github.close());
    // A GitHub sign-in that expires during the turn: the gate's credential check refuses the tool call then.
    const expiresAt = Math.ceil((Date.now() + 4_000) / 1000) * 1000;
    const token = github.state.issuePersonalToken("alice", { expiresAt });
    const { core, model, id } = await setup({ github: { clientId: defaultFixtures().clientId, url: github.url }, githubToken: token });
    await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in with the token", 30_000);
    model.script(
      async () => {
        await waitFor(() => Date.now() > expiresAt + 500, "the sign-in expired", 10_000);
        return { toolCalls: [{ name: "read_plan", arguments: {} }] };
      },
      { text: "I could not read the plan." },
    );
    const asked = await core.api.postMessage(id, { text: "@Planner read it", to: "planner", clientRequestId: "deny-1" });
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.turn?.state === "answered"), "answered", 60_000);
    const entries = await plannerEntries(core, id);
    const denial = entries.find((e) => e.denial);
    expect(denial).toMatchObject({
      text: "The Planner's read_plan was refused by the credential check: The GitHub sign-in has expired.",
      denial: { tool: "read_plan", check: "credential", reason: "The GitHub sign-in has expired.", turnId: asked.entry.id },
      sessionGeneration: 0,
    });
    expect(denial!.turn).toBeUndefined();
    // The answer lists no call of the refused tool: it never ran.
    const answer = entries.find((e) => e.turn?.state === "answered")!;
    expect(answer).toMatchObject({ text: "I could not read the plan.", turn: { id: asked.entry.id } });
    expect(answer.tools).toBeUndefined();
  });

  it("reads a document a message references with read_reference, says when it changed, and reads nothing unreferenced", { timeout: 90_000 }, async () => {
    const { core, model, id } = await setup();
    const spec = await core.api.createDocument({ title: "Spec", markdown: "# Spec\n\nUse Postgres.\n" });
    const other = await core.api.createDocument({ title: "Other", markdown: "Not for the Planner.\n" });
    const results: Record<string, any>[] = [];
    model.script(
      { toolCalls: [{ name: "read_reference", arguments: { documentId: spec.id } }] },
      (request) => {
        results.push(lastToolResult(request));
        return { toolCalls: [{ name: "read_reference", arguments: { documentId: other.id } }] };
      },
      (request) => {
        results.push(lastToolResult(request));
        return { text: "The spec says Postgres." };
      },
    );
    const asked = await core.api.postMessage(id, { text: "@Planner what database?", to: "planner", clientRequestId: "ref-1", references: [spec.id] });
    expect(asked.entry.references).toEqual([{ documentId: spec.id, title: "Spec", revision: spec.revision, changedSince: false }]);
    await waitFor(async () => (await plannerEntries(core, id)).some((e) => e.turn?.state === "answered"), "answered", 60_000);
    const prompt = model.requests[0]!.body.messages.filter((m) => m.role === "user").map(messageText).join("\n");
    expect(prompt).toContain(`│ (references for read_reference, evidence only: “Spec” (document ${spec.id}, revision ${spec.revision} when sent))`);
    expect(results[0]).toMatchObject({ ok: true, value: { documentId: spec.id, markdown: "# Spec\n\nUse Postgres.\n", changedSince: false } });
    expect(results[1]).toMatchObject({ ok: false, error: { code: "not-referenced" } });
    expect(JSON.stringify(results[1])).not.toContain("Not for the Planner");

    // The referenced document moves on: the message says so, and the next read says so too.
    await core.api.renameDocument(spec.id, "Spec v2");
    expect((await core.api.readConversation(id)).entries.find((e) => e.id === asked.entry.id)!.references).toEqual([expect.objectContaining({ title: "Spec", changedSince: true })]);
    model.script({ toolCalls: [{ name: "read_reference", arguments: { documentId: spec.id } }] }, (request) => {
      results.push(lastToolResult(request));
      return { text: "It was renamed." };
    });
    await core.api.postMessage(id, { text: "@Planner and now?", to: "planner", clientRequestId: "ref-2" });
    await waitFor(() => results.length === 3, "read again", 60_000);
    expect(results[2]).toMatchObject({ ok: true, value: { title: "Spec v2", revisionSeen: spec.revision, changedSince: true } });
  });

  it("ends the session at sign-out; after signing in again the next turn bootstraps a fresh one from the transcript", { timeout: 120_000 }, async () => {
    const fixtures = defaultFixtures();
    const github = await startFakeGitHub({ fixtures });
    cleanups.push(() => github.close());
    // Signed in at start with a supplied token (quick); after the sign-out, again through the device flow.
    const { core, model, id } = await setup({ github: { clientId: fixtures.clientId, url: github.url }, githubToken: github.state.issuePersonalToken("alice") });
    const signIn = async () => {
      const { deviceFlow } = await core.api.startSignIn();
      github.state.approveDevice(deviceFlow!.userCode, "alice");
      await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in", 30_000);
    };
    await waitFor(async () => (await core.api.getAuthState()).state === "signed-in", "signed in with the token", 30_000);
    model.script({ text: "First, from the first session." }, { text: "Second, from a fresh one." });
    await core.api.postMessage(id, { text: "@Planner remember the word heron", to: "planner", clientRequestId: "so-1" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 1, "first answered", 60_000);
    expect(core.planner.runtimeSessions()).toBe(1);

    await core.api.signOut();
    await waitFor(() => core.planner.runtimeSessions() === 0, "the session ended at sign-out", 30_000);
    await waitFor(async () => !(await core.api.getPlannerState(id)).ownedHere, "the Planner released", 30_000);
    // Released at this device's keeper, not merely let go here: well before the lease could have expired.
    await waitFor(() => core.planner.ownership.keeperOf(id).known(id)?.owner === null, "the lease free at its keeper", PLANNER_LEASE_TTL_MS / 3);

    await signIn();
    await core.api.postMessage(id, { text: "@Planner what was the word?", to: "planner", clientRequestId: "so-2" });
    await waitFor(async () => (await plannerEntries(core, id)).length === 2, "second answered", 60_000);
    const fresh = model.requests.at(-1)!.body.messages;
    expect(fresh.map((m) => m.role)).toEqual(["system", "user"]);
    // Bootstrapped from the transcript: the earlier exchange is in it, as the conversation recorded it.
    expect(messageText(fresh[1])).toContain("remember the word heron");
    expect(messageText(fresh[1])).toContain("First, from the first session.");
  });
});
