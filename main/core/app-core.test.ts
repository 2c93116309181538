import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Repo, type AutomergeUrl } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { tempDir } from "../sync/test-helpers.js";
import { dispatchApiCall } from "../api/api-dispatch.js";
import { createAppCore } from "./app-core.js";
import type { AppCore } from "./types.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function core(dataDir: string, relay?: { url: string; token: string }): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, relayUrl: relay?.url, relayToken: relay?.token });
  cleanups.push(() => c.close());
  return c;
}

describe("createAppCore", () => {
  it("refuses every call once closing with 'core-unavailable' and a sentence, not a raw error or a false 'not found'", async () => {
    const dir = tempDir("chopin-core-closed-");
    cleanups.push(() => dir.remove());
    const c = await core(dir.path);
    const plan = await c.api.createDocument({ title: "Kept" });
    await c.close();
    const refusal = { code: "core-unavailable", message: expect.stringMatching(/^Chopin is closing, so nothing was done/) };
    await expect(c.api.listDocuments()).rejects.toMatchObject(refusal);
    await expect(c.api.getDocument(plan.id)).rejects.toMatchObject(refusal);
    await expect(c.api.getSettings()).rejects.toMatchObject(refusal);
    // Over the bridge too: a typed error, not 'internal'.
    expect(await dispatchApiCall(c.api, "createDocument", [{ title: "Late" }])).toMatchObject({ ok: false, error: { code: "core-unavailable" } });
    const again = await core(dir.path);
    expect((await again.api.listDocuments()).map((d) => d.title)).toEqual(["Kept"]);
  });

  it("writes offline with no relay, publishes the MCP config, and keeps documents across restarts", async () => {
    const dir = tempDir("chopin-core-");
    cleanups.push(() => dir.remove());
    const first = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
    const created = await first.api.createDocument({ title: "Offline plan", markdown: "# Goal\n" });
    expect(created.shared).toBe(false);
    expect(await first.api.getSyncStatus()).toMatchObject({ state: "local-only", pendingChanges: 0 });

    const config = JSON.parse(readFileSync(first.mcp.configPath, "utf8"));
    expect(config.mcpServers.chopin.url).toBe(first.mcp.url);
    expect(statSync(first.mcp.configPath).mode & 0o777).toBe(0o600);
    const unauthorized = await fetch(first.mcp.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(unauthorized.status).toBe(401);
    await first.close();

    const second = await core(dir.path);
    const listed = await second.api.listDocuments();
    expect(listed.map((d) => d.title)).toEqual(["Offline plan"]);
    expect(existsSync(join(dir.path, "chopin.db"))).toBe(true);
  });

  it("refuses sharing with 'no-relay' (app API and MCP) until a team relay is configured, then shares", async () => {
    const dir = tempDir("chopin-core-no-relay-");
    cleanups.push(() => dir.remove());
    const c = await core(dir.path);
    const config = JSON.parse(readFileSync(c.mcp.configPath, "utf8")).mcpServers.chopin;
    const agent = new Client({ name: "agent", version: "1" });
    await agent.connect(new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }));
    cleanups.push(() => agent.close());
    const mcpCreate = async (key: string) => {
      const result = (await agent.callTool({
        name: "create_document",
        arguments: { idempotencyKey: key, title: "Agent plan", markdown: "", shared: true },
      })) as { isError?: boolean; content: { text: string }[] };
      return { isError: result.isError === true, body: JSON.parse(result.content[0].text) };
    };

    await expect(c.api.createDocument({ title: "Team plan", shared: true })).rejects.toMatchObject({
      code: "no-relay",
      message: expect.stringMatching(/configure a team relay in Settings, or create the document private/),
    });
    expect(await mcpCreate("k1")).toMatchObject({ isError: true, body: { error: { code: "no-relay" } } });
    expect(await c.api.listDocuments()).toEqual([]);
    const mine = await c.api.createDocument({ title: "Mine" });
    expect(mine.shared).toBe(false);
    await expect(c.api.shareDocument(mine.id)).rejects.toMatchObject({ code: "no-relay", message: expect.stringMatching(/Settings/) });
    expect((await c.api.getDocument(mine.id)).shared).toBe(false);

    // A relay address is what "configured" means. With no credential yet nothing connects, and the status says so
    // (not "local only": shared plans now wait for the relay).
    await c.api.updateSettings({ relayUrl: "ws://127.0.0.1:9" });
    expect(await c.api.getSyncStatus()).toMatchObject({
      state: "unauthorized",
      relayUrl: "ws://127.0.0.1:9",
      lastError: { code: "unauthorized", message: expect.stringMatching(/relay token in Settings/) },
    });
    expect((await c.api.shareDocument(mine.id)).shared).toBe(true);
    expect((await c.api.createDocument({ title: "Team plan", shared: true })).shared).toBe(true);
    expect(await mcpCreate("k1")).toMatchObject({ isError: false, body: { status: "created", document: { shared: true } } });
  });

  it("refuses, as a bridge call, options that are not an object; a call with none makes the default document", async () => {
    const dir = tempDir("chopin-core-options-");
    cleanups.push(() => dir.remove());
    const c = await core(dir.path);
    // What host mode's /api and Electron's IPC do with a window's call (api-dispatch.ts).
    const call = (method: string, args: unknown[]) => dispatchApiCall(c.api, method, args);
    for (const input of ["just a string", 5, null, [], "x".repeat(200 * 1024)]) {
      expect(await call("createDocument", [input])).toMatchObject({
        ok: false,
        error: { code: "invalid-input", message: expect.stringMatching(/^A new document's details must be sent as an object/) },
      });
      expect(await call("listDocuments", [input])).toMatchObject({ ok: false, error: { code: "invalid-input" } });
      expect(await call("updateSettings", [input])).toMatchObject({ ok: false, error: { code: "invalid-input" } });
      expect(await call("startSignIn", [input])).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    }
    expect(await c.api.listDocuments()).toEqual([]);
    expect(await call("createDocument", [])).toMatchObject({ ok: true, result: { title: "Untitled plan" } });
    expect(await call("listDocuments", [])).toMatchObject({ ok: true, result: [{ title: "Untitled plan" }] });
  });

  it("syncs a window only the documents it asks for", async () => {
    const dir = tempDir("chopin-core-window-");
    cleanups.push(() => dir.remove());
    const c = await core(dir.path);
    const created = await c.api.createDocument({ title: "Window plan", markdown: "hello" });
    const channel = new MessageChannel();
    c.attachRendererAdapter(new MessageChannelNetworkAdapter(channel.port1 as unknown as MessagePort));
    const window = new Repo({ network: [new MessageChannelNetworkAdapter(channel.port2 as unknown as MessagePort)] });
    const heardAbout = new Set<string>();
    window.networkSubsystem.on("message", (m) => void ("documentId" in m && m.documentId && heardAbout.add(m.documentId)));
    cleanups.push(async () => {
      await window.shutdown();
      channel.port1.close();
    });
    await waitFor(() => window.peers.length > 0, "window connected");
    const handle = await window.find<{ title: string }>(created.url as AutomergeUrl);
    expect(handle.doc().title).toBe("Window plan");
    await c.api.renameDocument(created.id, "Renamed");
    await waitFor(() => handle.doc().title === "Renamed", "the rename reaches the window");
    // The core announces nothing to a window: it heard only about the document it asked for (not the workspace index).
    expect([...heardAbout]).toEqual([created.id]);
  });

  it("shares new documents with the team by default and never sends a private one to the relay", { timeout: 120_000 }, async () => {
    const relayDir = tempDir("chopin-core-relay-");
    cleanups.push(() => relayDir.remove());
    const relay: RunningRelay = await startRelay({ dataDir: relayDir.path, port: 0 });
    cleanups.push(() => relay.close());
    const alice = relay.users.add("alice").token;
    const bob = relay.users.add("bob").token;
    const [dirA, dirB] = [tempDir("chopin-core-a-"), tempDir("chopin-core-b-")];
    cleanups.push(() => dirA.remove(), () => dirB.remove());

    const a = await core(dirA.path, { url: relay.url, token: alice });
    const b = await core(dirB.path, { url: relay.url, token: bob });
    await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "core A connected");

    const shared = await a.api.createDocument({ title: "Team plan", markdown: "shared words" });
    const secret = await a.api.createDocument({ title: "Diary", markdown: "private words", shared: false });
    expect(shared.shared).toBe(true);
    expect(secret.shared).toBe(false);

    await waitFor(async () => (await b.api.listDocuments()).some((d) => d.id === shared.id), "B lists the shared document", 30_000);
    // With no name chosen, each person is called by the relay's name for them (teammates are told apart by it).
    await waitFor(async () => (await b.api.getIdentity()).displayName === "bob", "B named by the relay", 30_000);
    await a.api.updateSettings({ displayName: "Alice L." });
    expect((await a.api.getIdentity()).displayName).toBe("Alice L.");
    await waitFor(async () => (await a.api.getSyncStatus()).pendingChanges === 0, "A has nothing waiting", 30_000);
    expect((await b.api.listDocuments()).some((d) => d.id === secret.id)).toBe(false);
    const chunks = relay.db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key LIKE ?").get(`${secret.id}%`) as { n: number };
    expect(chunks.n).toBe(0);
    expect(Object.keys(relay.repo.handles)).not.toContain(secret.id);

    // Sharing later is one-way and reaches the teammate.
    await a.api.shareDocument(secret.id);
    await waitFor(async () => (await b.api.listDocuments()).some((d) => d.id === secret.id), "B lists the newly shared document", 30_000);
    await expect(a.api.shareDocument(secret.id)).rejects.toMatchObject({ code: "already-shared" });
  });
});
