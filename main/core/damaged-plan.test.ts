/**
 * One plan's stored chunks overwritten with garbage inside a good chopin.db (storage audit). The first read said
 * 'storage-failure', but every later one (the window reopening it, its version history, an agent's read_document)
 * waited on automerge-repo's stuck handle for about a minute and then called the plan "not found". Every read of it
 * must say 'storage-failure' at once, every other plan must list and open, and its bytes must stay as they were.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore } from "./app-core.js";
import { chunksOf, damagedPlanFolder } from "./damaged-plan-fixture.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

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
    const { dir, bad, good, garbage } = await damagedPlanFolder("chopin-damaged-plan-");
    cleanups.push(() => dir.remove());

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
