import { afterEach, describe, expect, it } from "vitest";
import { MAX_MCP_BRANCH_CHARS, MAX_MCP_COMMIT_CHARS, MAX_MCP_GOAL_CHARS, MAX_TITLE_CHARS, MAX_DOCUMENT_MARKDOWN_BYTES, MAX_MCP_BRIEF_ITEMS, MAX_MCP_BRIEF_ITEM_CHARS } from "../../shared/limits.js";
import { MAX_MCP_ID_CHARS, MAX_MCP_IDEMPOTENCY_KEY_CHARS, MAX_MCP_REVISION_CHARS } from "../util/limits.js";
import { makeFixture } from "../documents/test-fixture.js";
import { startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

const TOOL_NAMES = [
  "list_documents",
  "read_document",
  "create_document",
  "update_document",
  "rename_document",
  "archive_document",
  "restore_document",
];

describe("MCP tools over the SDK client", () => {
  it("lists the tools and gives instructions", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(client.getInstructions()).toMatch(/revision/);
    const create = tools.find((t) => t.name === "create_document")!;
    expect((create.inputSchema.properties as Record<string, { maxLength?: number }>).idempotencyKey.maxLength).toBe(
      MAX_MCP_IDEMPOTENCY_KEY_CHARS,
    );
  });

  it("create -> read -> list -> update -> conflict -> replay -> idempotency conflict", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect("copilot-cli");
    const created = await mf.call(client, "create_document", {
      idempotencyKey: "k-create",
      title: "Auth plan",
      markdown: "# Auth\n",
      repository: "octo/app",
      baseBranch: "main",
      baseCommit: "abc123",
      brief: { goal: "Add login", constraints: ["no new deps"] },
    });
    expect(created.isError).toBe(false);
    expect(created.body.status).toBe("created");
    const id = created.body.document.id;
    expect(created.body.document).toMatchObject({
      createdVia: "mcp",
      repository: { owner: "octo", name: "app" },
      provenance: { baseBranch: "main", baseCommit: "abc123", clientName: "copilot-cli" },
    });

    const read = await mf.call(client, "read_document", { id });
    expect(read.body).toMatchObject({
      id,
      title: "Auth plan",
      markdown: "# Auth\n",
      brief: { goal: "Add login", constraints: ["no new deps"], settledDecisions: [], openQuestions: [], repositoryFindings: [] },
      archivedAt: null,
      shared: false,
    });

    const listed = await mf.call(client, "list_documents", {});
    expect(listed.body.documents).toEqual([
      expect.objectContaining({ id, title: "Auth plan", archivedAt: null, shared: false, createdVia: "mcp" }),
    ]);

    const updated = await mf.call(client, "update_document", {
      id,
      revision: read.body.revision,
      markdown: "# Auth\n\nStep 1\n",
      idempotencyKey: "k-up-1",
    });
    expect(updated.body).toMatchObject({ status: "updated", id });
    expect(updated.body.revision).not.toBe(read.body.revision);

    const stale = await mf.call(client, "update_document", {
      id,
      revision: read.body.revision,
      markdown: "other",
      idempotencyKey: "k-up-2",
    });
    expect(stale.isError).toBe(true);
    expect(stale.body.error).toMatchObject({ code: "revision-conflict", details: { revision: updated.body.revision } });

    const replay = await mf.call(client, "update_document", {
      id,
      revision: read.body.revision,
      markdown: "# Auth\n\nStep 1\n",
      idempotencyKey: "k-up-1",
    });
    expect(replay.body).toEqual({ ...updated.body, status: "replayed" });

    const reuse = await mf.call(client, "update_document", {
      id,
      revision: updated.body.revision,
      markdown: "different",
      idempotencyKey: "k-up-1",
    });
    expect(reuse.body.error.code).toBe("idempotency-conflict");

    const createReplay = await mf.call(client, "create_document", {
      idempotencyKey: "k-create",
      title: "Auth plan",
      markdown: "# Auth\n",
      repository: "octo/app",
      baseBranch: "main",
      baseCommit: "abc123",
      brief: { goal: "Add login", constraints: ["no new deps"] },
    });
    expect(createReplay.body.status).toBe("replayed");
    expect(createReplay.body.document.id).toBe(id);
    expect((await mf.call(client, "list_documents", {})).body.documents).toHaveLength(1);
  });

  it("records 'unknown' as the client when initialize named none", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect("");
    const created = await mf.call(client, "create_document", { idempotencyKey: "k", markdown: "" });
    expect(created.body.document.provenance).toEqual({ clientName: "unknown" });
    expect(created.body.document.title).toBe("Untitled plan");
  });

  it("names a plan created without a title by its Markdown's first heading", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const created = await mf.call(client, "create_document", { idempotencyKey: "k", markdown: "# Migrate the billing job\n\nSteps" });
    expect(created.body.document.title).toBe("Migrate the billing job");
  });

  it("never refuses a body for the title it derives: control characters are cleaned out, a long heading is cut", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const create = (key: string, args: Record<string, unknown>) => mf.call(client, "create_document", { idempotencyKey: key, ...args });

    const nul = await create("nul", { markdown: "# Head\u0000ing\nbody" });
    expect(nul.isError).toBe(false);
    expect(nul.body.document.title).toBe("Heading");
    const onlyControls = await create("controls", { markdown: "# \u0000\u0007\u001b\nbody" });
    expect(onlyControls.body.document.title).toBe("Untitled plan");
    // Emoji are two UTF-16 units each, as a title is counted: the cut falls inside one and keeps whole ones only.
    const emoji = await create("emoji", { markdown: `# a${"😀".repeat(MAX_TITLE_CHARS)}\nbody` });
    expect(emoji.isError).toBe(false);
    expect(emoji.body.document.title).toBe(`a${"😀".repeat(MAX_TITLE_CHARS / 2 - 1)}`);

    // A title the agent sent itself is still refused, so it learns its own mistake.
    const explicit = await create("explicit", { title: "Head\u0000ing", markdown: "body" });
    expect(explicit.body.error).toMatchObject({ code: "invalid-input", message: "A title cannot contain control characters." });
  });

  it("keeps a Windows-style plan's text with \n line endings, so edits in the editor land where they are typed", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const created = await mf.call(client, "create_document", { idempotencyKey: "k", markdown: "# CRLF plan\r\n\r\nline one\r\n" });
    expect(created.body.document.title).toBe("CRLF plan");
    const { id } = created.body.document;
    const read = await mf.call(client, "read_document", { id });
    expect(read.body.markdown).toBe("# CRLF plan\n\nline one\n");
    await mf.call(client, "update_document", { id, revision: read.body.revision, idempotencyKey: "u", markdown: "# CRLF plan\r\nline two\r" });
    expect((await mf.call(client, "read_document", { id })).body.markdown).toBe("# CRLF plan\nline two\n");
  });

  it("rename, archive (edits refused), restore — all idempotent", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const { body } = await mf.call(client, "create_document", { idempotencyKey: "k", title: "A", markdown: "x" });
    const id = body.document.id;
    expect((await mf.call(client, "rename_document", { id, title: "  B  " })).body.document.title).toBe("B");
    expect((await mf.call(client, "rename_document", { id, title: "B" })).body.document.title).toBe("B");
    const archived = await mf.call(client, "archive_document", { id });
    expect(archived.body.document.archivedAt).not.toBeNull();
    expect((await mf.call(client, "archive_document", { id })).body.document.archivedAt).toBe(
      archived.body.document.archivedAt,
    );
    const read = await mf.call(client, "read_document", { id });
    const refused = await mf.call(client, "update_document", {
      id,
      revision: read.body.revision,
      markdown: "y",
      idempotencyKey: "k2",
    });
    expect(refused.body.error.code).toBe("document-archived");
    expect((await mf.call(client, "rename_document", { id, title: "C" })).body.error.code).toBe("document-archived");
    expect((await mf.call(client, "list_documents", {})).body.documents).toEqual([]);
    expect((await mf.call(client, "list_documents", { includeArchived: true })).body.documents).toHaveLength(1);
    expect((await mf.call(client, "restore_document", { id })).body.document.archivedAt).toBeNull();
    expect((await mf.call(client, "restore_document", { id })).body.document.archivedAt).toBeNull();
    // The refused update stored nothing under its key: the key is free for the retry at the current revision.
    const current = (await mf.call(client, "read_document", { id })).body.revision;
    const again = await mf.call(client, "update_document", { id, revision: current, markdown: "y", idempotencyKey: "k2" });
    expect(again.body.status).toBe("updated");
  });

  it("structured errors for unknown ids, unknown tools and bad input", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    expect((await mf.call(client, "read_document", { id: "nope" })).body.error.code).toBe("invalid-input");
    expect((await mf.call(client, "read_document", { id: "4NMNnkMhL8jXrdJ9jamS58PAVdXu" })).body.error.code).toBe("not-found");
    expect((await mf.call(client, "delete_document", { id: "x" })).body.error.code).toBe("not-found");
    const bad = await mf.call(client, "create_document", { title: "x" });
    expect(bad.isError).toBe(true);
    expect(bad.body.error.code).toBe("invalid-input");
    expect(bad.body.error.details.issues.length).toBeGreaterThan(0);
    expect((await mf.call(client, "create_document", { idempotencyKey: "k", markdown: "", repository: "not a repo" })).body.error.code).toBe(
      "invalid-input",
    );
    expect((await mf.call(client, "list_documents", { extra: 1 })).body.error.code).toBe("invalid-input");
    // Arguments that are not an object at all are bad input too, answered as a tool error (not a protocol error).
    for (const args of [null, [], "text", 5]) {
      const answer = await mf.call(client, "create_document", args as never);
      expect(answer).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
    }
  });

  it("replays survive a restart of the server on the same database", async () => {
    const fx = await makeFixture();
    mf = await startMcpFixture(fx);
    let client = await mf.connect();
    const first = await mf.call(client, "create_document", { idempotencyKey: "persist", title: "P", markdown: "m" });
    await mf.close();
    mf = await startMcpFixture(fx);
    client = await mf.connect();
    const second = await mf.call(client, "create_document", { idempotencyKey: "persist", title: "P", markdown: "m" });
    expect(second.body).toEqual({ ...first.body, status: "replayed" });
    expect((await mf.call(client, "list_documents", {})).body.documents).toHaveLength(1);
    await mf.close();
    await fx.close();
    mf = undefined as never;
  });
});

describe("input bounds at their edges", () => {
  const edge = (n: number, ch = "a") => ch.repeat(n);

  it.each([
    ["idempotencyKey", MAX_MCP_IDEMPOTENCY_KEY_CHARS, (v: string) => ({ idempotencyKey: v, markdown: "" })],
    ["title", MAX_TITLE_CHARS, (v: string) => ({ idempotencyKey: `t${v.length}`, title: v, markdown: "" })],
    ["baseBranch", MAX_MCP_BRANCH_CHARS, (v: string) => ({ idempotencyKey: `b${v.length}`, markdown: "", baseBranch: v })],
    ["baseCommit", MAX_MCP_COMMIT_CHARS, (v: string) => ({ idempotencyKey: `c${v.length}`, markdown: "", baseCommit: v })],
    ["brief.goal", MAX_MCP_GOAL_CHARS, (v: string) => ({ idempotencyKey: `g${v.length}`, markdown: "", brief: { goal: v } })],
    [
      "brief item",
      MAX_MCP_BRIEF_ITEM_CHARS,
      (v: string) => ({ idempotencyKey: `i${v.length}`, markdown: "", brief: { goal: "g", constraints: [v] } }),
    ],
  ])("create_document %s: accepts %i, refuses one more", async (_field, limit, build) => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    expect((await mf.call(client, "create_document", build(edge(limit)))).isError).toBe(false);
    const over = await mf.call(client, "create_document", build(edge(limit + 1)));
    expect(over.body.error.code).toBe("invalid-input");
  });

  it("brief lists: accepts MAX_MCP_BRIEF_ITEMS items, refuses one more", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const items = (n: number) => Array.from({ length: n }, (_, i) => `q${i}`);
    const ok = await mf.call(client, "create_document", { idempotencyKey: "a", markdown: "", brief: { goal: "g", openQuestions: items(MAX_MCP_BRIEF_ITEMS) } });
    expect(ok.isError).toBe(false);
    const over = await mf.call(client, "create_document", { idempotencyKey: "b", markdown: "", brief: { goal: "g", openQuestions: items(MAX_MCP_BRIEF_ITEMS + 1) } });
    expect(over.body.error.code).toBe("invalid-input");
  });

  it("markdown: accepts MAX_DOCUMENT_MARKDOWN_BYTES, refuses one more byte with too-large", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const ok = await mf.call(client, "create_document", { idempotencyKey: "m1", markdown: edge(MAX_DOCUMENT_MARKDOWN_BYTES) });
    expect(ok.isError).toBe(false);
    const over = await mf.call(client, "create_document", { idempotencyKey: "m2", markdown: edge(MAX_DOCUMENT_MARKDOWN_BYTES + 1) });
    expect(over.body.error.code).toBe("too-large");
  });

  it("id: a MAX_MCP_ID_CHARS id passes the schema (refused only as no document id), one more fails it on length", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const schemaIssue = /arguments to read_document are not valid/;
    const atBound = await mf.call(client, "read_document", { id: edge(MAX_MCP_ID_CHARS) });
    // 'aaa…' is no document id, so the lookup refuses it too, but not as the schema's length issue on "id".
    expect(atBound.body.error.code).toBe("invalid-input");
    expect(atBound.body.error.message).not.toMatch(schemaIssue);
    expect(atBound.body.error.details?.issues ?? []).toEqual([]);
    const over = await mf.call(client, "read_document", { id: edge(MAX_MCP_ID_CHARS + 1) });
    expect(over.body.error.code).toBe("invalid-input");
    expect(over.body.error.message).toMatch(schemaIssue);
    expect(over.body.error.details.issues).toEqual([{ path: "id", message: expect.stringMatching(new RegExp(`<=${MAX_MCP_ID_CHARS}\\b`)) }]);
  });

  it("revision: a MAX_MCP_REVISION_CHARS value passes the schema and is judged (not a revision), one more is a schema issue", async () => {
    mf = await startMcpFixture();
    const client = await mf.connect();
    const { body } = await mf.call(client, "create_document", { idempotencyKey: "r", markdown: "x" });
    const update = (revision: string, key: string) =>
      mf.call(client, "update_document", { id: body.document.id, revision, markdown: "y", idempotencyKey: key });
    const atBound = (await update(edge(MAX_MCP_REVISION_CHARS), "r1")).body.error;
    expect(atBound).toMatchObject({ code: "invalid-input", message: expect.stringMatching(/not a revision/) });
    expect(atBound.details?.issues ?? []).toEqual([]);
    const over = await update(edge(MAX_MCP_REVISION_CHARS + 1), "r2");
    expect(over.body.error.code).toBe("invalid-input");
    expect(over.body.error.details.issues).toEqual([{ path: "revision", message: expect.stringMatching(new RegExp(`<=${MAX_MCP_REVISION_CHARS}\\b`)) }]);
  });
});
