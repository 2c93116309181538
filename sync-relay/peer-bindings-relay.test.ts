/**
 * Plain peer id bindings through a real relay on 127.0.0.1 and raw sockets, with a bound of 2 per user: fresh ids do
 * not pile up, an id with a live connection stays its user's (4403 to anyone else), and a join that would need a
 * live binding's room is refused (1013) instead. The bound's own edges are in peer-bindings.test.ts.
 */
import { describe, expect, it } from "vitest";
import { CLOSE_CODES, RELAY_PROTOCOL_VERSION, type WireFrame } from "../shared/sync-wire.js";
import { type RawClient } from "./test-wire.js";
import { useTestRelay } from "./test-relay.js";
import { waitFor } from "../shared/wait-for.js";

const BOUND = 2;
const t = useTestRelay("chopin-relay-bindings-", ["alice", "bob"], { maxPeerBindingsPerUser: BOUND });
const { joined } = t;

/** Joins and returns how the relay closed the socket. */
async function refused(handle: string, peerId: string): Promise<{ code: number; reason: string }> {
  const c = t.client(handle);
  await waitFor(() => c.opened, "socket open");
  c.send({ type: "join", senderId: peerId, peerMetadata: {}, supportedProtocolVersions: [RELAY_PROTOCOL_VERSION] } as WireFrame);
  await waitFor(() => c.closed !== null, "join refused");
  expect(c.frames.some((f) => f.type === "peer")).toBe(false);
  return c.closed!;
}

async function leave(c: RawClient): Promise<void> {
  const open = t.relay.connections();
  c.ws.close();
  await waitFor(() => t.relay.connections() === open - 1, "socket gone");
}

/** Returns once the clock moved past now, so the next use is strictly later than the last. */
async function nextMs(): Promise<void> {
  const now = Date.now();
  await waitFor(() => Date.now() > now, "the clock moves");
}

describe("relay peer id bindings", () => {
  it("keeps at most the bound per user however many fresh ids join one after another", async () => {
    for (let i = 0; i < 3 * BOUND; i++) await leave(await joined("alice", `fresh-${i}`));
    expect(t.relay.users.peerBindings.countOf("alice")).toBe(BOUND);
    // The forgotten ids are free again.
    await joined("bob", "fresh-0");
  });

  it("never frees a live id: refuses 1013 while all are live, then forgets the least recently used idle one", async () => {
    const first = await joined("alice", "device-a");
    await nextMs();
    const second = await joined("alice", "device-b");
    expect(await refused("alice", "device-c")).toEqual({
      code: 1013,
      reason: `user "alice" already has ${BOUND} peer ids connected, the most per user; close one first`,
    });
    expect(t.relay.users.ownerOfPeer("device-c")).toBeUndefined();
    expect((await refused("bob", "device-a")).code).toBe(CLOSE_CODES.peerRefused);

    // device-a joined first but left last: device-b is the least recently used when room is needed.
    await nextMs();
    await leave(second);
    await nextMs();
    await leave(first);
    await joined("alice", "device-c");
    expect(t.relay.users.ownerOfPeer("device-a")).toBe("alice");
    expect(t.relay.users.ownerOfPeer("device-b")).toBeUndefined();
    expect((await refused("bob", "device-a")).code).toBe(CLOSE_CODES.peerRefused);
  });
});
