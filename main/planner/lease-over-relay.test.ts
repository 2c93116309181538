/**
 * Planner ownership between two apps' real relay links and a real relay on 127.0.0.1 (issue #25): two apps claiming
 * at once make one owner; the other hears who; when the owner's app goes away (its link closed, as a crash leaves
 * it), its lease expires by the relay's clock, the watcher hears so, and its claim wins generation + 1; an app that
 * starts again releases what its earlier run held.
 */
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { makeFixture } from "../documents/test-fixture.js";
import { RelayLink } from "../sync/relay-link.js";
import { tempDir } from "../sync/test-helpers.js";
import { LeaseClient } from "./lease-client.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const TTL = 2_000;

async function app(relay: { url: string }, token: string, session: string): Promise<{ link: RelayLink; leases: LeaseClient }> {
  const fx = await makeFixture();
  cleanups.push(() => fx.close());
  const link = new RelayLink(fx.repo, fx.db, fx.service, fx.repo.peerId, () => {});
  cleanups.push(() => link.close());
  const leases = new LeaseClient({ transport: link.leaseTransport, session, renewEveryMs: TTL / 4, stopMarginMs: TTL / 4 });
  cleanups.push(() => leases.close());
  await link.configure(relay.url, { kind: "relay-token", token });
  await waitFor(() => link.status().state === "connected", "connected");
  return { link, leases };
}

describe("Planner ownership through a real relay", () => {
  it("gives a channel to one of two apps claiming at once, and to the other once the owner's app is gone", { timeout: 60_000 }, async () => {
    const dir = tempDir("chopin-lease-relay-");
    cleanups.push(() => dir.remove());
    const relay = await startRelay({ dataDir: join(dir.path, "relay"), leaseTtlMs: TTL });
    cleanups.push(() => relay.close());
    const channel = parseAutomergeUrl(generateAutomergeUrl()).documentId;
    const alice = await app(relay, relay.users.add("alice").token, "alice-run-1");
    const bob = await app(relay, relay.users.add("bob").token, "bob-run-1");
    await waitFor(async () => (await alice.leases.watch(channel).then(() => true, () => false)) && (await bob.leases.watch(channel).then(() => true, () => false)), "both watch");

    const [a, b] = await Promise.all([alice.leases.claim(channel), bob.leases.claim(channel)]);
    expect([a.granted, b.granted].filter(Boolean)).toHaveLength(1);
    const [owner, other] = a.granted ? [alice, bob] : [bob, alice];
    expect(owner.leases.owns(channel)).toBe(1);
    expect(other.leases.owns(channel)).toBeNull();
    await waitFor(() => other.leases.known(channel)?.owner !== null && other.leases.known(channel)?.generation === 1, "the other app knows who owns it");

    // The owner keeps it while it renews.
    const heldSince = performance.now();
    await waitFor(() => performance.now() - heldSince > TTL * 1.5 && owner.leases.owns(channel) === 1, "held past one term by renewing", 20_000);

    // The owner's app goes away without a word: its lease runs out at the relay, everyone watching hears so.
    owner.leases.close();
    owner.link.close();
    await waitFor(() => other.leases.known(channel)?.owner === null, "the expiry is pushed", 20_000);
    const next = await other.leases.claim(channel);
    expect(next).toMatchObject({ granted: true, lease: { generation: 2 } });
    expect(other.leases.owns(channel)).toBe(2);
  });

  it("releases what an earlier run of an app held when it connects again", { timeout: 60_000 }, async () => {
    const dir = tempDir("chopin-lease-restart-");
    cleanups.push(() => dir.remove());
    const relay = await startRelay({ dataDir: join(dir.path, "relay") });
    cleanups.push(() => relay.close());
    const token = relay.users.add("alice").token;
    const channel = parseAutomergeUrl(generateAutomergeUrl()).documentId;
    const fx = await makeFixture();
    cleanups.push(() => fx.close());
    const first = new RelayLink(fx.repo, fx.db, fx.service, fx.repo.peerId, () => {});
    const firstLeases = new LeaseClient({ transport: first.leaseTransport, session: "run-1" });
    await first.configure(relay.url, { kind: "relay-token", token });
    await waitFor(() => first.status().state === "connected", "connected");
    expect((await firstLeases.claim(channel)).granted).toBe(true);
    firstLeases.close();
    first.close();

    // The same device starts again (a new run): its earlier run's lease is released, keeping the generation.
    const again = new RelayLink(fx.repo, fx.db, fx.service, fx.repo.peerId, () => {});
    cleanups.push(() => again.close());
    const againLeases = new LeaseClient({ transport: again.leaseTransport, session: "run-2" });
    cleanups.push(() => againLeases.close());
    await again.configure(relay.url, { kind: "relay-token", token });
    await waitFor(() => relay.leases.leases.state(channel).owner === null, "the earlier run's lease released");
    expect(relay.leases.leases.state(channel).generation).toBe(1);
    expect(await againLeases.claim(channel)).toMatchObject({ granted: true, lease: { generation: 2 } });
  });
});
