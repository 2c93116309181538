/**
 * One plan's stored chunks overwritten with garbage inside a good chopin.db (storage audit). The first read said
 * 'storage-failure', but every later one (the window reopening it, its version history, an agent's read_document)
 * waited on automerge-repo's stuck handle for about a minute and then called the plan "not found". Every read of it
 * must say 'storage-failure' at once, every other plan must list and open, and its bytes must stay as they were.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { LOCAL_DB_FILE } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function chunksOf(dir: string, id: string): Array<{ key: string; data: Buffer }> {
  const db = new Database(join(dir, LOCAL_DB_FILE), { readonly: true });
  try {
    return db.prepare("SELECT key, data FROM automerge_chunks WHERE key LIKE ? ORDER BY seq").all(`${id}\u001f%`) as Array<{ key: string; data: Buffer }>;
  } finally {
    db.close();
  }
}

async function mcpRead(configPath: string, id: string): Promise<Record<string, unknown>> {
  const config = JSON.parse(readFileSync(configPath, "utf8")).mcpServers.chopin;
  const agent = new Client({ name: "audit", version: "1" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }));
  try {
    const result = (await agent.callTool({ name: "read_document", arguments: { id } })) as { content: Array<{ text: string }> };
    return JSON.parse(result.content[0]!.text);
  } finally {
    await agent.close();
  }
}

describe("a plan whose stored chunks are garbage", () => {
  it("is refused as storage-failure on every read (API, history, saved bytes, MCP), others open, its bytes stay", async () => {
    const dir = tempDir("chopin-damaged-plan-");
    cleanups.push(() => dir.remove());
    const first = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
    const bad = await first.api.createDocument({ title: "Damaged", markdown: "lost words" });
    const good = await first.api.createDocument({ title: "Fine", markdown: "kept words" });
    await first.close();

    const db = new Database(join(dir.path, LOCAL_DB_FILE));
    for (const row of chunksOf(dir.path, bad.id)) db.prepare("UPDATE automerge_chunks SET data = ? WHERE key = ?").run(randomBytes(row.data.length), row.key);
    db.close();
    const garbage = chunksOf(dir.path, bad.id);
    expect(garbage.length).toBeGreaterThan(0);

    const core = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
    cleanups.push(() => core.close());
    expect((await core.api.listDocuments({})).map((d) => d.title).sort()).toEqual(["Damaged", "Fine"]);
    const refused = { code: "storage-failure", message: expect.stringContaining("could not be read") };
    await expect(core.api.getDocument(bad.id)).rejects.toMatchObject(refused);
    // The second and later reads used to wait on the stuck handle, then say "not found".
    await expect(core.api.getDocument(bad.id)).rejects.toMatchObject(refused);
    await expect(core.api.listVersions(bad.id)).rejects.toMatchObject(refused);
    await expect(core.api.readSavedDocument(bad.id)).rejects.toMatchObject(refused);
    await expect(core.api.renameDocument(bad.id, "Overwritten")).rejects.toMatchObject(refused);
    expect(await mcpRead(core.mcp.configPath, bad.id)).toMatchObject({ error: { code: "storage-failure" } });

    expect((await core.api.getDocument(good.id)).title).toBe("Fine");
    expect(await mcpRead(core.mcp.configPath, good.id)).toMatchObject({ markdown: "kept words" });

    await core.close();
    expect(chunksOf(dir.path, bad.id)).toEqual(garbage);
  });
});
