/**
 * Planner ownership at the relay, over the wire (issue #25): two apps claiming at once make one owner; every watcher
 * hears each change at once, expiry included (by the relay's clock); the generation grows by one per owner and
 * survives a restart; a reset ends the lease for everyone; a new run of an app releases what its earlier run held; a
 * connection that did not agree to lease frames, or sends one that does not fit, is closed.
 */
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { FEATURE_PLANNER_LEASE, LEASE_REQUEST_TYPE, LEASE_STATE_TYPE, type LeaseRequest, type LeaseStateFrame } from "../shared/lease-wire.js";
import { waitFor } from "../shared/wait-for.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";
import { RELAY_PEER_ID } from "./server.js";
import { useTestRelay } from "./test-relay.js";
import type { RawClient } from "./test-wire.js";

const TTL = 1_500;
const t = useTestRelay("chopin-relay-leases-", ["alice", "bob"], { leaseTtlMs: TTL });
const channel = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;

let counter = 0;
/** Sends a lease request and waits for its answer. */
async function ask(client: RawClient, peerId: string, session: string, request: LeaseRequest): Promise<LeaseStateFrame> {
  const requestId = `r${++counter}`;
  client.send({ type: LEASE_REQUEST_TYPE, senderId: peerId, targetId: RELAY_PEER_ID, requestId, session, request } as never);
  await waitFor(() => client.frames.some((f) => (f as { requestId?: string }).requestId === requestId), `answer to ${request.op}`);
  return client.frames.find((f) => (f as { requestId?: string }).requestId === requestId) as unknown as LeaseStateFrame;
}

const pushes = (client: RawClient) => client.frames.filter((f) => f.type === LEASE_STATE_TYPE && (f as { requestId?: string }).requestId === undefined) as unknown as LeaseStateFrame[];
const leasing = { features: [FEATURE_PLANNER_LEASE] };

describe("planner ownership at the relay", () => {
  it("offers lease frames only to a client that asks, and closes a connection that sends them anyway or sends one that does not fit", async () => {
    const plain = await t.joined("alice", "alice:plain");
    expect((plain.frames.find((f) => f.type === "peer") as { features?: string[] }).features ?? []).not.toContain(FEATURE_PLANNER_LEASE);
    plain.send({ type: LEASE_REQUEST_TYPE, senderId: "alice:plain", targetId: RELAY_PEER_ID, requestId: "x", session: "s", request: { op: "claim", channelId: channel() } } as never);
    await waitFor(() => plain.closed !== null, "closed");
    expect(plain.closed?.code).toBe(CLOSE_CODES.policy);

    const agreed = await t.joined("alice", "alice:laptop", leasing);
    expect((agreed.frames.find((f) => f.type === "peer") as { features?: string[] }).features).toContain(FEATURE_PLANNER_LEASE);
    agreed.send({ type: LEASE_REQUEST_TYPE, senderId: "alice:laptop", targetId: RELAY_PEER_ID, requestId: "y", session: "s", request: { op: "claim" } } as never);
    await waitFor(() => agreed.closed !== null, "closed");
    expect(agreed.closed?.code).toBe(CLOSE_CODES.malformed);
  });

  it("gives a channel to one of two apps claiming at once, tells every watcher, and the expiry too, by the relay's clock", async () => {
    const c = channel();
    const alice = await t.joined("alice", "alice:laptop", leasing);
    const bob = await t.joined("bob", "bob:desk", leasing);
    expect(await ask(bob, "bob:desk", "run-b", { op: "watch", channelId: c })).toMatchObject({ ok: true, lease: { generation: 0, owner: null } });
    const [a, b] = await Promise.all([ask(alice, "alice:laptop", "run-a", { op: "claim", channelId: c }), ask(bob, "bob:desk", "run-b", { op: "claim", channelId: c })]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const winner = a.ok ? a : b;
    expect(winner.lease).toMatchObject({ channelId: c, generation: 1 });
    expect(winner.lease?.expiresInMs).toBeGreaterThan(0);
    expect(winner.lease?.expiresInMs).toBeLessThanOrEqual(TTL);
    const loser = a.ok ? b : a;
    expect(loser.lease?.owner).toEqual(winner.lease?.owner);
    if (a.ok) await waitFor(() => pushes(bob).some((p) => p.lease?.generation === 1 && p.lease.owner?.user === "alice"), "bob hears alice owns it");
    // Not renewed: the relay's timer ends it and says so.
    await waitFor(() => pushes(bob).some((p) => p.lease?.owner === null && p.lease.generation === 1), "bob hears the lease expired", 10_000);
    const next = await ask(bob, "bob:desk", "run-b", { op: "claim", channelId: c });
    expect(next).toMatchObject({ ok: true, lease: { generation: 2, owner: { user: "bob", device: "bob:desk" } } });
  });

  it("lets any member reset the lease, tells watchers, and the next owner's generation is one more", async () => {
    const c = channel();
    const alice = await t.joined("alice", "alice:laptop", leasing);
    const bob = await t.joined("bob", "bob:desk", leasing);
    await ask(alice, "alice:laptop", "run-a", { op: "watch", channelId: c });
    await ask(alice, "alice:laptop", "run-a", { op: "claim", channelId: c });
    expect(await ask(bob, "bob:desk", "run-b", { op: "reset", channelId: c })).toMatchObject({ ok: true, lease: { generation: 1, owner: null } });
    await waitFor(() => pushes(alice).some((p) => p.lease?.owner === null), "alice hears the reset");
    expect(t.log.some((line) => /reset by bob/.test(line))).toBe(true);
    expect((await ask(bob, "bob:desk", "run-b", { op: "claim", channelId: c })).lease?.generation).toBe(2);
  });

  it("keeps the generation across a relay restart, and a new run of an app releases what its earlier run held", async () => {
    const c = channel();
    const first = await t.joined("alice", "alice:laptop", leasing);
    await ask(first, "alice:laptop", "run-1", { op: "claim", channelId: c });
    await t.reopen({});
    const again = await t.joined("alice", "alice:laptop", leasing);
    expect(await ask(again, "alice:laptop", "run-2", { op: "watch", channelId: c })).toMatchObject({ lease: { generation: 1, owner: { user: "alice" } } });
    expect(await ask(again, "alice:laptop", "run-2", { op: "release-earlier-runs" })).toMatchObject({ ok: true, released: [c] });
    expect(await ask(again, "alice:laptop", "run-2", { op: "claim", channelId: c })).toMatchObject({ ok: true, lease: { generation: 2 } });
  });

  it("refuses a channel that is not a plan id, and a plan deleted from the team", async () => {
    const alice = await t.joined("alice", "alice:laptop", leasing);
    expect(await ask(alice, "alice:laptop", "run-a", { op: "claim", channelId: "not-a-plan" })).toMatchObject({ ok: false, reason: expect.stringMatching(/does not serve/) });
    const c = channel();
    t.relay.deleted.record(c, Date.now());
    expect(await ask(alice, "alice:laptop", "run-a", { op: "claim", channelId: c })).toMatchObject({ ok: false });
  });
});

describe("planner lease renewal at the relay", () => {
  const clock = { now: 1_000_000 };
  const r = useTestRelay("chopin-relay-lease-renew-", ["alice", "bob"], { leaseTtlMs: 60_000, leaseNow: () => clock.now });

  it("renews only the owner of the generation it names, and keeps the lease past its first term while renewed", async () => {
    const c = channel();
    const alice = await r.joined("alice", "alice:laptop", leasing);
    const bob = await r.joined("bob", "bob:desk", leasing);
    await ask(alice, "alice:laptop", "run-a", { op: "claim", channelId: c });
    expect(await ask(bob, "bob:desk", "run-b", { op: "renew", channelId: c, generation: 1 })).toMatchObject({ ok: false });
    expect(await ask(alice, "alice:laptop", "run-a", { op: "renew", channelId: c, generation: 2 })).toMatchObject({ ok: false });
    for (let term = 0; term < 3; term++) {
      clock.now += 59_999;
      expect(await ask(alice, "alice:laptop", "run-a", { op: "renew", channelId: c, generation: 1 })).toMatchObject({ ok: true, lease: { generation: 1, expiresInMs: 60_000 } });
    }
    clock.now += 60_000;
    expect(await ask(alice, "alice:laptop", "run-a", { op: "renew", channelId: c, generation: 1 })).toMatchObject({ ok: false, lease: { owner: null, generation: 1 } });
    expect(await ask(bob, "bob:desk", "run-b", { op: "claim", channelId: c })).toMatchObject({ ok: true, lease: { generation: 2 } });
  });
});
