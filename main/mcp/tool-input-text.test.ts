/**
 * What an agent sends that is stored and shown as sent (brief, base branch and commit, titles) is checked like the
 * title and Markdown are: whole characters, no hidden controls, bounds on what is kept. Refusals name the field in
 * their sentence. Also: the same body changes nothing, either id form is one request for the replay log, and only
 * the server's own wrapper of non-object arguments is read as one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_TITLE_CHARS } from "../../shared/limits.js";
import { NON_OBJECT_ARGUMENTS } from "./call-arguments.js";
import { startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

async function agent() {
  mf = await startMcpFixture();
  const client = await mf.connect();
  return (name: string, args: Record<string, unknown>) => mf.call(client, name, args);
}

describe("text an agent sends is checked where it is stored as sent", () => {
  it.each([
    ["brief.goal", { brief: { goal: "g\ud800" } }, /brief\.goal: contains half of a surrogate pair/],
    ["brief item", { brief: { goal: "g", openQuestions: ["ok", "a\u0000b"] } }, /brief\.openQuestions\.1: contains a control character/],
    ["baseBranch", { baseBranch: "ma\u0000in" }, /baseBranch: must be one line/],
    ["baseBranch", { baseBranch: "main\nnext" }, /baseBranch: must be one line/],
    ["baseCommit", { baseCommit: "abc\ud800" }, /baseCommit: contains half of a surrogate pair/],
    ["baseCommit", { baseCommit: "" }, /baseCommit: Too small/],
    ["brief field", { brief: { goal: "g", nodeId: "x" } }, /brief: Unrecognized key/],
  ])("refuses a bad %s, naming it in the sentence", async (_what, extra, words) => {
    const call = await agent();
    const refused = await call("create_document", { idempotencyKey: "k", markdown: "x", ...extra });
    expect(refused.isError).toBe(true);
    expect(refused.body.error.code).toBe("invalid-input");
    expect(refused.body.error.message).toMatch(/^The arguments to create_document are not valid: /);
    expect(refused.body.error.message).toMatch(words);
    expect((await call("list_documents", {})).body.documents).toEqual([]);
  });

  it("keeps tabs and line breaks in a brief, and a whole emoji anywhere", async () => {
    const call = await agent();
    const brief = { goal: "Ship 🚀\n\tsoon", constraints: ["line one\r\nline two"] };
    const created = await call("create_document", { idempotencyKey: "k", markdown: "x", brief, baseBranch: "feature/🚀" });
    expect(created.isError).toBe(false);
    const read = await call("read_document", { id: created.body.document.id });
    expect(read.body.brief).toEqual({ ...brief, settledDecisions: [], openQuestions: [], repositoryFindings: [] });
    expect(read.body.provenance.baseBranch).toBe("feature/🚀");
  });
});

describe("titles", () => {
  it(`bounds the trimmed title: ${MAX_TITLE_CHARS} characters between spaces is accepted, one more is not`, async () => {
    const call = await agent();
    const atBound = "t".repeat(MAX_TITLE_CHARS);
    const created = await call("create_document", { idempotencyKey: "k", markdown: "x", title: `  ${atBound}  ` });
    expect(created.body.document.title).toBe(atBound);
    const renamed = await call("rename_document", { id: created.body.document.id, title: ` ${atBound} ` });
    expect(renamed.isError).toBe(false);
    const over = await call("rename_document", { id: created.body.document.id, title: ` ${atBound}t ` });
    expect(over.body.error.message).toMatch(/^The arguments to rename_document are not valid: title: Too big/);
  });

  it("names a plan by its first heading when the title sent is blank", async () => {
    const call = await agent();
    const created = await call("create_document", { idempotencyKey: "k", markdown: "# Real heading\n\nBody", title: "   " });
    expect(created.body.document.title).toBe("Real heading");
  });
});

describe("update_document", () => {
  it("the same Markdown changes nothing: the revision stays", async () => {
    const call = await agent();
    const created = await call("create_document", { idempotencyKey: "c", markdown: "# Plan\n" });
    const { id } = created.body.document;
    const read = await call("read_document", { id });
    const same = await call("update_document", { id, revision: read.body.revision, markdown: read.body.markdown, idempotencyKey: "u1" });
    expect(same.body.revision).toBe(read.body.revision);
    const changed = await call("update_document", { id, revision: read.body.revision, markdown: "# Plan\n\nMore\n", idempotencyKey: "u2" });
    expect(changed.body.revision).not.toBe(read.body.revision);
  });

  it("the bare id and the automerge: URL are the same request for the replay log", async () => {
    const call = await agent();
    const created = await call("create_document", { idempotencyKey: "c", markdown: "v0\n" });
    const { id, url, revision } = created.body.document;
    const first = await call("update_document", { id: url, revision, markdown: "v1\n", idempotencyKey: "same" });
    expect(first.body.status).toBe("updated");
    const retry = await call("update_document", { id, revision, markdown: "v1\n", idempotencyKey: "same" });
    expect(retry.isError).toBe(false);
    expect(retry.body).toEqual({ ...first.body, status: "replayed" });
  });
});

describe("non-object arguments", () => {
  it("says what was sent in words", async () => {
    const call = await agent();
    void call;
    const res = await fetch(mf.server.url, {
      method: "POST",
      headers: { authorization: `Bearer ${mf.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_documents", arguments: "text" } }),
    });
    const answer = (await res.json()) as { result: { content: { text: string }[] } };
    expect(JSON.parse(answer.result.content[0].text).error.message).toBe("The arguments to list_documents must be an object, not a string.");
  });

  it("an agent sending the wrapper's key itself gets an unknown-field refusal that does not echo its value", async () => {
    const call = await agent();
    const refused = await call("list_documents", { [NON_OBJECT_ARGUMENTS]: "A".repeat(100_000) });
    expect(refused.body.error.code).toBe("invalid-input");
    expect(refused.body.error.message).toMatch(/Unrecognized key/);
    expect(JSON.stringify(refused.body).length).toBeLessThan(2_000);
  });
});
