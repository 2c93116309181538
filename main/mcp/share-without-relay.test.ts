/** create_document with shared: true and no team relay configured is a typed refusal that creates and records nothing. */
import { afterEach, describe, expect, it } from "vitest";
import { startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

describe("create_document and the team relay", () => {
  it("refuses shared: true with 'no-relay' while none is configured; the same key creates it once one is", async () => {
    let relayUrl: string | null = null;
    mf = await startMcpFixture(undefined, { relayUrl: () => relayUrl });
    const client = await mf.connect("agent");
    const request = { idempotencyKey: "k-shared", title: "Team plan", markdown: "# Team\n", shared: true };

    const refused = await mf.call(client, "create_document", request);
    expect(refused.isError).toBe(true);
    expect(refused.body.error.code).toBe("no-relay");
    expect(refused.body.error.message).toMatch(/configure a team relay in Settings/);
    expect(refused.body.error.message).toMatch(/private/);
    expect((await mf.call(client, "list_documents", {})).body.documents).toEqual([]);

    // Private (explicitly or by default) still works without a relay.
    const privateOne = await mf.call(client, "create_document", { idempotencyKey: "k-private", title: "Mine", markdown: "", shared: false });
    expect(privateOne.isError).toBe(false);
    expect(privateOne.body.document.shared).toBe(false);

    relayUrl = "wss://relay.example.test";
    // The refusal recorded nothing under the key, so the agent's retry now creates the document.
    const created = await mf.call(client, "create_document", request);
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({ status: "created", document: { title: "Team plan", shared: true } });
  });

  it("a retry of a shared create made while a relay was configured replays, even after the relay is removed", async () => {
    let relayUrl: string | null = "wss://relay.example.test";
    mf = await startMcpFixture(undefined, { relayUrl: () => relayUrl });
    const client = await mf.connect("agent");
    const request = { idempotencyKey: "k-again", title: "Team plan", markdown: "", shared: true };
    const first = await mf.call(client, "create_document", request);
    expect(first.body.status).toBe("created");
    relayUrl = null;
    const again = await mf.call(client, "create_document", request);
    expect(again.body).toMatchObject({ status: "replayed", document: { id: first.body.document.id, shared: true } });
  });
});
