/**
 * Plain peer id bindings stay bounded per user and expire, at the edges of RELAY_MAX_PEER_BINDINGS_PER_USER and
 * RELAY_PEER_BINDING_TTL_MS, without ever freeing a binding a live connection holds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RELAY_MAX_PEER_BINDINGS_PER_USER as MAX, RELAY_PEER_BINDING_TTL_MS as TTL } from "./limits.js";
import { openRelayDb } from "./relay-db.js";
import { UserStore } from "./users.js";

let dir: string;
let db: Database.Database;
let users: UserStore;
const nobodyLive = (): boolean => false;
const T0 = 1_700_000_000_000;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chopin-relay-bindings-"));
  db = openRelayDb(dir);
  users = new UserStore(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** alice binds device-0 .. device-(n-1), one ms apart (device-0 least recently used). */
function bindDevices(n: number, isLive: (peerId: string) => boolean = nobodyLive): void {
  for (let i = 0; i < n; i++) expect(users.claimPeer("alice", `device-${i}`, isLive, T0 + i).ok).toBe(true);
}

const ownerOf = (peerId: string) => users.ownerOfPeer(peerId);

describe("peer id bindings per user", () => {
  it("keeps RELAY_MAX_PEER_BINDINGS_PER_USER, and one more forgets the least recently used", () => {
    bindDevices(MAX);
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf("device-0")).toBe("alice");

    expect(users.claimPeer("alice", "device-new", nobodyLive, T0 + MAX).ok).toBe(true);
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf("device-0")).toBeUndefined();
    expect(ownerOf("device-1")).toBe("alice");
    // The forgotten id is free again; the kept ones still are not.
    expect(users.claimPeer("bob", "device-0", nobodyLive, T0 + MAX + 1).ok).toBe(true);
    expect(users.claimPeer("bob", "device-1", nobodyLive, T0 + MAX + 2)).toMatchObject({ ok: false, why: "not-theirs" });
  });

  it("stays at the bound however many fresh ids join (the audit's 300 connections)", () => {
    bindDevices(300);
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf(`device-${300 - MAX - 1}`)).toBeUndefined();
    expect(ownerOf(`device-${300 - MAX}`)).toBe("alice");
  });

  it("counts a re-join as use: the id joined again is not the one forgotten", () => {
    bindDevices(MAX);
    expect(users.claimPeer("alice", "device-0", nobodyLive, T0 + MAX).ok).toBe(true);
    expect(users.claimPeer("alice", "device-new", nobodyLive, T0 + MAX + 1).ok).toBe(true);
    expect(ownerOf("device-0")).toBe("alice");
    expect(ownerOf("device-1")).toBeUndefined();
  });

  it("never forgets a live binding: skips it, and refuses while every binding is live", () => {
    const live = new Set(["device-0", "device-1"]);
    bindDevices(MAX);
    expect(users.claimPeer("alice", "device-new", (id) => live.has(id), T0 + MAX).ok).toBe(true);
    expect(ownerOf("device-0")).toBe("alice");
    expect(ownerOf("device-1")).toBe("alice");
    expect(ownerOf("device-2")).toBeUndefined();

    const allLive = (id: string) => id !== "device-extra";
    const refused = users.claimPeer("alice", "device-extra", allLive, T0 + MAX + 1);
    expect(refused).toEqual({ ok: false, why: "all-in-use", reason: expect.stringContaining(`${MAX} peer ids connected`) });
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf("device-extra")).toBeUndefined();
    // One below the bound live: the claim goes through at the cost of the one binding that is not.
    const oneFree = (id: string) => id !== "device-3";
    expect(users.claimPeer("alice", "device-extra", oneFree, T0 + MAX + 2).ok).toBe(true);
    expect(ownerOf("device-3")).toBeUndefined();
  });

  it("refuses another user's binding without touching any binding, and leaves named ids out of the table", () => {
    bindDevices(MAX);
    expect(users.claimPeer("bob", "device-5", nobodyLive, T0 + MAX)).toEqual({
      ok: false,
      why: "not-theirs",
      reason: 'peer id "device-5" does not belong to user "bob"',
    });
    expect(users.claimPeer("alice", "alice:laptop", nobodyLive, T0 + MAX).ok).toBe(true);
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf("device-0")).toBe("alice");
  });

  it("brings a user above the bound (bound before it existed) back under it on their next claim", () => {
    const insert = db.prepare("INSERT INTO peer_bindings (peer_id, handle, bound_at, used_at) VALUES (?, 'alice', ?, ?)");
    for (let i = 0; i < MAX + 10; i++) insert.run(`old-${i}`, T0 + i, T0 + i);
    expect(users.claimPeer("alice", "device-new", nobodyLive, T0 + MAX + 10).ok).toBe(true);
    expect(users.peerBindings.countOf("alice")).toBe(MAX);
    expect(ownerOf("old-10")).toBeUndefined();
    expect(ownerOf("old-11")).toBe("alice");
  });
});

describe("peer id bindings over time", () => {
  it("forgets a binding unused for RELAY_PEER_BINDING_TTL_MS, not one used just under it", () => {
    users.claimPeer("alice", "device-old", nobodyLive, T0);
    users.claimPeer("alice", "device-recent", nobodyLive, T0 + 1);
    // At T0 + TTL: device-old reached the TTL, device-recent is 1 ms short of it.
    expect(users.claimPeer("bob", "device-recent", nobodyLive, T0 + TTL)).toMatchObject({ ok: false, why: "not-theirs" });
    expect(ownerOf("device-old")).toBeUndefined();
    expect(users.claimPeer("bob", "device-old", nobodyLive, T0 + TTL).ok).toBe(true);
    expect(ownerOf("device-recent")).toBe("alice");
  });

  it("keeps an expired binding while a connection holds it, and counts leaving as use", () => {
    users.claimPeer("alice", "device-on", nobodyLive, T0);
    users.claimPeer("alice", "device-left", nobodyLive, T0);
    users.leftPeer("device-left", T0 + 10);
    const on = (id: string) => id === "device-on";
    expect(users.claimPeer("bob", "device-on", on, T0 + TTL)).toMatchObject({ ok: false, why: "not-theirs" });
    expect(users.claimPeer("bob", "device-left", on, T0 + TTL)).toMatchObject({ ok: false, why: "not-theirs" });
    expect(users.claimPeer("bob", "device-left", on, T0 + 10 + TTL).ok).toBe(true);
    expect(ownerOf("device-on")).toBe("alice");
  });
});
