/**
 * One device, two users: the app's plain device id goes on the wire as "<handle>:<device>", so the same device may
 * sign in as another user, while presenting another user's id (or a plain id another user holds) stays refused.
 * Real relay, real sockets on 127.0.0.1.
 */
import { join } from "node:path";
import { Repo, type PeerId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_PEER_ID_CHARS } from "../../shared/limits.js";
import { CLOSE_CODES } from "../../shared/sync-wire.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { rawClient } from "../../sync-relay/test-wire.js";
import { RelayConnection } from "./relay-connection.js";
import { tempDir } from "./test-helpers.js";
import { namesUser, wirePeerId } from "./wire-peer-id.js";
import { waitFor } from "../../shared/wait-for.js";

const DEVICE = "device-0b6c7f52-1d7e-4c3a-9b1e-5f2d8a7c6e10";
let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
let tokens: Record<string, string>;
const cleanups: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  dir = tempDir("chopin-wire-peer-");
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
  tokens = { alice: relay.users.add("alice").token, bob: relay.users.add("bob").token };
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await relay.close();
  dir.remove();
});

/** The app core's wiring: a Repo under the plain device id, its relay connection qualifying it. */
function device(token: string): { repo: Repo; connection: RelayConnection } {
  const connection = new RelayConnection({ url: relay.url, token, peerId: DEVICE, qualifyPeerId: true, minBackoffMs: 20, maxBackoffMs: 200 });
  const repo = new Repo({ network: [connection.adapter], peerId: DEVICE as PeerId });
  connection.attachRepo(repo);
  cleanups.push(async () => {
    await connection.close();
    await repo.shutdown().catch(() => undefined);
  });
  return { repo, connection };
}

describe("a device signing in as another user", () => {
  it("syncs as alice, then as bob, each under its own wire id", async () => {
    const asAlice = device(tokens.alice);
    await waitFor(() => asAlice.connection.status === "connected", "alice connected");
    expect(asAlice.connection.adapter.wirePeerId).toBe(`alice:${DEVICE}`);
    const fromAlice = asAlice.repo.create({ by: "alice" });
    await waitFor(() => relay.repo.handles[fromAlice.documentId]?.isReady() ?? false, "alice's document reaches the relay");
    await asAlice.connection.close();

    const asBob = device(tokens.bob);
    await waitFor(() => asBob.connection.status === "connected", "bob connected on the same device", 15_000);
    expect(asBob.connection.adapter.wirePeerId).toBe(`bob:${DEVICE}`);
    const fromBob = asBob.repo.create({ by: "bob" });
    await waitFor(() => relay.repo.handles[fromBob.documentId]?.isReady() ?? false, "bob's document reaches the relay");
    expect(asBob.connection.lastError).toBeNull();
  }, 30_000);

  it("setToken to another user's token reconnects under that user's id", async () => {
    const d = device(tokens.alice);
    await waitFor(() => d.connection.status === "connected", "alice connected");
    d.connection.setToken(tokens.bob);
    await waitFor(() => d.connection.adapter.wirePeerId === `bob:${DEVICE}` && d.connection.status === "connected", "bob connected");
    const doc = d.repo.create({ n: 1 });
    await waitFor(() => relay.repo.handles[doc.documentId]?.isReady() ?? false, "the document reaches the relay");
  });

  it("a refused token ends in unauthorized before any socket, with the relay's reason", async () => {
    const d = device("not-a-token");
    await waitFor(() => d.connection.status === "unauthorized", "unauthorized");
    expect(d.connection.lastError?.code).toBe("unauthorized");
    expect(relay.connections()).toBe(0);
  });
});

describe("no takeover of another user's peer id", () => {
  it("refuses bob presenting alice's wire id, even while alice is offline", async () => {
    const asAlice = device(tokens.alice);
    await waitFor(() => asAlice.connection.status === "connected", "alice connected");
    const thief = rawClient(relay.url, tokens.bob);
    await expect(thief.join(`alice:${DEVICE}`)).rejects.toThrow(/join refused/);
    expect(thief.closed?.code).toBe(CLOSE_CODES.peerRefused);
    await asAlice.connection.close();
    const later = rawClient(relay.url, tokens.bob);
    await expect(later.join(`alice:${DEVICE}`)).rejects.toThrow(/join refused/);
    expect(later.closed?.code).toBe(CLOSE_CODES.peerRefused);
  });

  it("keeps a plain id bound to the first user who presented it (older clients)", async () => {
    const first = rawClient(relay.url, tokens.alice);
    await first.join("device-old");
    first.ws.close();
    const squatter = rawClient(relay.url, tokens.bob);
    await expect(squatter.join("device-old")).rejects.toThrow(/join refused/);
    expect(squatter.closed?.code).toBe(CLOSE_CODES.peerRefused);
  });
});

describe("wirePeerId", () => {
  it("prefixes a plain device id with the handle, up to MAX_PEER_ID_CHARS", () => {
    expect(wirePeerId("alice", DEVICE)).toBe(`alice:${DEVICE}`);
    const device = "d".repeat(MAX_PEER_ID_CHARS - "alice:".length);
    expect(wirePeerId("alice", device)).toHaveLength(MAX_PEER_ID_CHARS);
    expect(wirePeerId("alice", `${device}d`)).toBeNull();
    expect(wirePeerId("", DEVICE)).toBeNull();
    expect(wirePeerId("gh:alice", DEVICE)).toBe(`gh:alice:${DEVICE}`);
    expect(wirePeerId("gh:", DEVICE)).toBeNull();
    expect(wirePeerId("alice", "")).toBeNull();
    expect(wirePeerId("alice", "bob:laptop")).toBeNull();
    expect(namesUser("bob:laptop")).toBe(true);
    expect(namesUser(DEVICE)).toBe(false);
  });
});
