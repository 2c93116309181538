/**
 * listenOnStablePort with plain TCP servers on 127.0.0.1 and a real settings database: each named server keeps its own
 * memory, a taken port falls back to the remembered one, and errors other than "taken" are not swallowed. The MCP
 * server's use of it is tested in main/mcp/stable-port.test.ts.
 */
import { createServer, type Server } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openLocalDb, type LocalDb } from "./local-db.js";
import { listenOnStablePort } from "./stable-port.js";

const servers: Server[] = [];
const cleanups: (() => void)[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function freshDb(): LocalDb {
  const dir = mkdtempSync(join(tmpdir(), "chopin-ports-"));
  const db = openLocalDb(dir);
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

/** Listens on 127.0.0.1:port; rejects as Node does (EADDRINUSE when taken). */
async function listen(port: number): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  servers.push(server);
  return { port: (server.address() as { port: number }).port, server };
}

async function close(server: Server): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await new Promise((resolve) => server.close(resolve));
}

describe("listenOnStablePort", () => {
  it("keeps each named server's fallback to itself, launch after launch", async () => {
    const db = freshDb();
    const holder = await listen(0);
    const requested = holder.port;

    const ui = await listenOnStablePort(db, "ui", requested, listen);
    expect(ui.server.port).not.toBe(requested);
    await close(ui.server.server);
    const other = await listenOnStablePort(db, "other", requested, listen);
    // Had "other" read ui's memory, it would have taken ui's fallback (free now); it took a port of its own.
    expect(other.server.port).not.toBe(ui.server.port);
    await close(other.server.server);
    const uiAgain = await listenOnStablePort(db, "ui", requested, listen);
    expect(uiAgain.server.port).toBe(ui.server.port);
    expect(uiAgain.changedFrom).toBeNull();
  });

  it("reports the previous launch's port when this launch could not have it", async () => {
    const db = freshDb();
    const free = await listen(0);
    await close(free.server);
    const first = await listenOnStablePort(db, "ui", free.port, listen);
    const published = first.server.port;
    await close(first.server.server);
    const squatter = await listen(published);
    const second = await listenOnStablePort(db, "ui", published, listen);
    expect(second.server.port).not.toBe(published);
    expect(second.changedFrom).toBe(published);
    await close(squatter.server);
  });

  it("passes on an error that is not a taken port, without trying another", async () => {
    const db = freshDb();
    const tried: number[] = [];
    const refusing = async (port: number): Promise<{ port: number }> => {
      tried.push(port);
      throw Object.assign(new Error("permission denied"), { code: "EACCES" });
    };
    await expect(listenOnStablePort(db, "ui", 80, refusing)).rejects.toThrow("permission denied");
    expect(tried).toEqual([80]);
  });
});
