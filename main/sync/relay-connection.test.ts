/**
 * RelayConnection against a real in-process relay: status and typed lastError for every way a connection ends,
 * reconnects, and GET /v1/team. Nothing here may throw uncaught (vitest fails the run on an unhandled error).
 */
import { createServer } from "node:net";
import { join } from "node:path";
import { Repo, type PeerId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { workspaceIndexSchema } from "../../shared/schema/workspace-index.js";
import { runUserCommand } from "../../sync-relay/cli-commands.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { RelayConnection, type RelayStatusEvent } from "./relay-connection.js";
import { fetchTeamInfo, relayHttpBase } from "./team-info.js";
import { setUpRelay, startClient, tearDownRelay, type RelayFixture, type TestClient } from "./test-helpers.js";
import { waitFor } from "../../shared/wait-for.js";
import { RELAY_REVOCATION_BOUND_MS } from "../../sync-relay/limits.js";

let dir: RelayFixture["dir"];
let relay: RunningRelay;
let tokens: Record<string, string>;
const clients: TestClient[] = [];

function client(peerId: string, token: string, url = relay.url): TestClient {
  const c = startClient({ url, token, peerId, dbFile: join(dir.path, `${peerId.replace(/\W/g, "_")}-${clients.length}.sqlite`) });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  ({ dir, relay, tokens } = await setUpRelay("chopin-relay-conn-"));
});

afterEach(async () => {
  await tearDownRelay({ dir, relay, tokens }, clients);
});

describe("RelayConnection status", () => {
  it("goes connecting -> connected, and offline -> reconnecting -> connected across a relay restart", async () => {
    const events: RelayStatusEvent[] = [];
    const c = client("alice:laptop", tokens.alice);
    c.connection.onStatus((e) => events.push(e));
    await waitFor(() => c.connection.status === "connected", "connected");
    expect(c.connection.lastError).toBeNull();
    expect(c.connection.isRelayPeer("chopin-relay")).toBe(true);
    expect(c.connection.isRelayPeer("alice:laptop")).toBe(false);

    const port = relay.port;
    await relay.close();
    await waitFor(() => c.connection.status !== "connected", "connection lost");
    expect(c.connection.lastError?.code).toBe("relay-unavailable");
    relay = await startRelay({ dataDir: join(dir.path, "relay"), port });
    await waitFor(() => c.connection.status === "connected", "reconnected");
    const states = events.map((e) => e.state);
    expect(states).toContain("offline");
    expect(states).toContain("reconnecting");
    expect(states.at(-1)).toBe("connected");
  });

  it("while offline says in plain words why, and when the next attempt comes", async () => {
    // A port nothing listens on: every attempt is refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const connection = new RelayConnection({ url: `ws://127.0.0.1:${port}`, token: "t", peerId: "alice:laptop", minBackoffMs: 400, maxBackoffMs: 800 });
    try {
      expect(connection.nextRetryAt).toBeNull();
      const before = Date.now();
      connection.adapter.connect("alice:laptop" as PeerId);
      await waitFor(() => connection.status === "offline" && connection.nextRetryAt !== null, "offline with a retry pending");
      expect(connection.lastError?.message).toBe("The relay is not running at its address, or the address is wrong.");
      expect(connection.lastError?.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      // Jitter keeps each wait within [minBackoffMs, maxBackoffMs] of the failure.
      expect(connection.nextRetryAt!).toBeGreaterThanOrEqual(before + 400);
      expect(connection.nextRetryAt!).toBeLessThanOrEqual(Date.now() + 800);
      const first = connection.nextRetryAt;
      await waitFor(() => connection.nextRetryAt !== null && connection.nextRetryAt !== first, "the next attempt failed and set a new retry time");
      connection.adapter.disconnect();
      expect(connection.nextRetryAt).toBeNull();
    } finally {
      await connection.close();
    }
  });

  it("turns a 401 into 'unauthorized' without throwing, stops retrying, and recovers with setToken", async () => {
    let upgrades = 0;
    relay.httpServer.on("upgrade", () => upgrades++);
    const c = client("alice:laptop", "not-a-token");
    await waitFor(() => c.connection.status === "unauthorized", "unauthorized");
    expect(c.connection.lastError).toMatchObject({ code: "unauthorized", details: { status: 401 } });
    expect(c.connection.lastError?.message).toMatch(/token/);
    // The Repo keeps working locally.
    const local = c.repo.create({ x: 1 });
    expect((await c.repo.find<{ x: number }>(local.url)).doc().x).toBe(1);

    // Let a whole other connection come up and sync while the refused one would have retried (20-200 ms backoff).
    const other = client("bob:desktop", tokens.bob);
    await waitFor(() => other.connection.status === "connected", "other connected");
    const h = other.repo.create({ y: 1 });
    await waitFor(() => relay.repo.handles[h.documentId]?.isReady() ?? false, "relay has bob's doc");
    expect(upgrades).toBe(2);
    expect(c.connection.status).toBe("unauthorized");

    c.connection.setToken(tokens.alice);
    await waitFor(() => c.connection.status === "connected", "connected with the new token");
    expect(c.connection.lastError).toBeNull();
  });

  it("ends in 'unauthorized' within the bound when the user is revoked (CLI code path, same DB file)", async () => {
    const c = client("bob:laptop", tokens.bob);
    await waitFor(() => c.connection.status === "connected", "connected");
    expect(runUserCommand({ kind: "user-revoke", handle: "bob", dataDir: join(dir.path, "relay") }, { out: () => {}, err: () => {} })).toBe(0);
    await waitFor(() => c.connection.status === "unauthorized", "cut", RELAY_REVOCATION_BOUND_MS);
    expect(c.connection.lastError).toMatchObject({ code: "unauthorized", details: { closeCode: 4401 } });
  });

  it("refuses a peer id of another user, and lets the same user's same peer id replace the older connection", async () => {
    const owner = client("alice:laptop", tokens.alice);
    await waitFor(() => owner.connection.status === "connected", "owner connected");
    const thief = client("alice:laptop", tokens.bob);
    await waitFor(() => thief.connection.status === "unauthorized", "thief refused");
    expect(thief.connection.lastError).toMatchObject({ code: "forbidden", details: { closeCode: 4403 } });
    expect(owner.connection.status).toBe("connected");

    const second = client("alice:laptop", tokens.alice);
    await waitFor(() => second.connection.status === "connected", "second connected");
    await waitFor(() => owner.connection.status === "unauthorized", "first replaced");
    expect(owner.connection.lastError).toMatchObject({ code: "forbidden", details: { closeCode: 4409 } });
    // The replacing connection syncs.
    const h = second.repo.create({ z: 1 });
    await waitFor(() => relay.repo.handles[h.documentId]?.isReady() ?? false, "relay has the doc");
  });

  it("refuses to run under a Repo whose peer id differs from its own", async () => {
    const connection = new RelayConnection({ url: relay.url, token: tokens.alice, peerId: "alice:laptop" });
    const repo = new Repo({ network: [connection.adapter], peerId: "alice:other" as PeerId });
    await waitFor(() => connection.status === "unauthorized", "refused");
    expect(connection.lastError?.code).toBe("invalid-input");
    await connection.close();
    await repo.shutdown();
  });

  it("reports an unreachable relay as relay-unavailable and keeps retrying without throwing", async () => {
    const port = await freePort();
    const c = client("alice:laptop", tokens.alice, `ws://127.0.0.1:${port}/`);
    const states: string[] = [];
    c.connection.onStatus((e) => states.push(e.state));
    await waitFor(() => states.filter((s) => s === "reconnecting").length >= 2, "retries");
    expect(c.connection.lastError?.code).toBe("relay-unavailable");
    await c.connection.adapter.whenReady();
  });
});

describe("fetchTeamInfo", () => {
  it("returns the user and the team index, which a member can open", async () => {
    const info = await fetchTeamInfo(relay.url, tokens.alice);
    expect(info).toEqual({ user: "alice", teamIndexDocumentId: relay.teamIndexDocumentId });
    const c = client("alice:laptop", tokens.alice);
    await waitFor(() => c.connection.status === "connected", "connected");
    const index = await c.repo.find(info.teamIndexDocumentId as never);
    expect(workspaceIndexSchema.parse(index.doc()).scope).toBe("team");
  });

  it("throws typed errors: unauthorized for a bad token, relay-unavailable when unreachable", async () => {
    await expect(fetchTeamInfo(relay.url, "nope")).rejects.toMatchObject({ code: "unauthorized" });
    const port = await freePort();
    const failure = await fetchTeamInfo(`ws://127.0.0.1:${port}`, tokens.alice).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChopinError);
    expect((failure as ChopinError).code).toBe("relay-unavailable");
  });

  it("maps ws/wss to http/https and refuses other schemes", () => {
    expect(relayHttpBase("ws://relay.example:8787/sync")).toBe("http://relay.example:8787");
    expect(relayHttpBase("wss://relay.example/")).toBe("https://relay.example");
    expect(() => relayHttpBase("ftp://relay.example")).toThrow(ChopinError);
    expect(() => relayHttpBase("not a url")).toThrow(ChopinError);
  });
});

/** A port nothing listens on: bind one, note it, release it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
