/**
 * The MCP port across launches: requested first, then this installation's last fallback, then any free port (then
 * remembered); a change from the previous launch's port is reported; port 0 is neither remembered nor reported.
 * Real servers on 127.0.0.1 over a real document service and SQLite; "taken" is a real listener on the port.
 */
import { createServer, type Server } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeFixture, type Fixture } from "../documents/test-fixture.js";
import type { RunningMcpServer } from "./server.js";
import { startMcpOnStablePort } from "./stable-port.js";
import { loadOrCreateMcpToken } from "./token.js";

let fx: Fixture;
const running: RunningMcpServer[] = [];
const holders: Server[] = [];

beforeEach(async () => {
  fx = await makeFixture();
});

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
  for (const holder of holders.splice(0)) await new Promise((resolve) => holder.close(resolve));
  await fx.close();
});

/** A port something else holds now. */
async function takenPort(port = 0): Promise<number> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
  holders.push(holder);
  return (holder.address() as { port: number }).port;
}

async function launch(requested: number) {
  const options = { documents: fx.service, db: fx.db, token: loadOrCreateMcpToken(fx.db) };
  const started = await startMcpOnStablePort(options, requested, fx.db);
  running.push(started.server);
  return started;
}

async function stop(server: RunningMcpServer): Promise<void> {
  running.splice(running.indexOf(server), 1);
  await server.close();
}

describe("startMcpOnStablePort", () => {
  it("uses the requested port when free, and reports no change on the first and on a same-port launch", async () => {
    const port = await takenPort();
    await new Promise((resolve) => holders.pop()!.close(resolve));
    const first = await launch(port);
    expect(first.server.port).toBe(port);
    expect(first.changedFrom).toBeNull();
    await stop(first.server);
    const again = await launch(port);
    expect(again).toMatchObject({ changedFrom: null });
    expect(again.server.port).toBe(port);
  });

  it("falls back when the requested port is taken, says it changed, and keeps the fallback on later launches", async () => {
    const requested = await takenPort();
    // The previous launch published the requested port...
    await new Promise((resolve) => holders.pop()!.close(resolve));
    await stop((await launch(requested)).server);
    await takenPort(requested);
    // ...this one cannot have it: any free port, reported as a change from the requested one.
    const moved = await launch(requested);
    expect(moved.server.port).not.toBe(requested);
    expect(moved.changedFrom).toBe(requested);
    const fallback = moved.server.port;
    await stop(moved.server);
    // Still taken next launch: the same fallback again, so agents set up meanwhile keep working; no change reported.
    const next = await launch(requested);
    expect(next.server.port).toBe(fallback);
    expect(next.changedFrom).toBeNull();
    await stop(next.server);
    // The requested port is free again: back to it, and that is a change from the fallback the last launch published.
    await new Promise((resolve) => holders.pop()!.close(resolve));
    const back = await launch(requested);
    expect(back.server.port).toBe(requested);
    expect(back.changedFrom).toBe(fallback);
  });

  it("never remembers or reports a launch on port 0 (any free port, asked for on purpose)", async () => {
    const one = await launch(0);
    await stop(one.server);
    const two = await launch(0);
    expect(two.changedFrom).toBeNull();
    expect(two.server.port).toBeGreaterThan(0);
  });
});
