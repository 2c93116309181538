import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type Database from "better-sqlite3";
import { MAX_HANDLE_CHARS, RELAY_TOKEN_BYTES } from "./limits.js";
import { openRelayDb } from "./relay-db.js";
import { UserStore, handleNamedByPeer, hashToken, isValidHandle } from "./users.js";

let dir: string;
let db: Database.Database;
let users: UserStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chopin-relay-users-"));
  db = openRelayDb(dir);
  users = new UserStore(db);
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the claim stands, with no connection live. */
const claims = (handle: string, peerId: string): boolean => users.claimPeer(handle, peerId, () => false).ok;

describe("UserStore", () => {
  it("issues tokens of RELAY_TOKEN_BYTES random bytes, base64url-encoded", () => {
    const { token } = users.add("alice");
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(RELAY_TOKEN_BYTES);
    expect(users.add("bob").token).not.toBe(token);
  });

  it("issues a token that authenticates, and stores only its SHA-256", () => {
    const { token } = users.add("alice");
    expect(users.authenticate(token)).toEqual({ handle: "alice", tokenHash: hashToken(token) });
    expect(users.authenticate(token + "x")).toBeNull();
    expect(users.authenticate("")).toBeNull();
    expect(users.authenticate(undefined)).toBeNull();
    db.close();
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file)).includes(Buffer.from(token))).toBe(false);
    }
  });

  it("keeps handles unique and refuses re-adding an active one", () => {
    users.add("alice");
    expect(() => users.add("alice")).toThrow(/already exists/);
    expect(() => db.prepare("INSERT INTO users (handle, token_hash, created_at) VALUES ('alice', 'x', 0)").run()).toThrow(
      /UNIQUE/,
    );
  });

  it("refuses a handle that differs from an existing one only in case, revoked or not", () => {
    users.add("alice");
    expect(() => users.add("Alice")).toThrow(/"Alice" differs from the existing user "alice" only in case/);
    users.revoke("alice");
    expect(() => users.add("ALICE")).toThrow(/only in case/);
    // The same handle itself can be admitted again after a revoke.
    expect(users.add("alice").handle).toBe("alice");
    expect(users.list().map((u) => u.handle)).toEqual(["alice"]);
  });

  it("accepts a handle at MAX_HANDLE_CHARS and refuses one above, or with bad characters", () => {
    expect(isValidHandle("a".repeat(MAX_HANDLE_CHARS))).toBe(true);
    expect(isValidHandle("a".repeat(MAX_HANDLE_CHARS + 1))).toBe(false);
    expect(() => users.add("a".repeat(MAX_HANDLE_CHARS + 1))).toThrow(/not a valid handle/);
    for (const bad of ["", "-a", "a-", "a b", "a:b", "ä"]) expect(isValidHandle(bad), bad).toBe(false);
    expect(isValidHandle("octo-cat9")).toBe(true);
  });

  it("revokes: the token stops working, and re-adding issues a new token while the old stays dead", () => {
    const first = users.add("bob").token;
    expect(users.revoke("bob")).toBe(true);
    expect(users.revoke("bob")).toBe(false);
    expect(users.authenticate(first)).toBeNull();
    expect(users.list()).toEqual([expect.objectContaining({ handle: "bob", revokedAt: expect.any(Number) })]);
    const second = users.add("bob").token;
    expect(users.authenticate(first)).toBeNull();
    expect(users.authenticate(second)?.handle).toBe("bob");
    expect(users.activeCredentials().get("bob")).toBe(hashToken(second));
  });

  it("binds peer ids: <handle>:<device> to that handle, plain ids to their first user", () => {
    users.add("alice");
    users.add("bob");
    expect(claims("alice", "alice:laptop")).toBe(true);
    expect(claims("bob", "alice:laptop")).toBe(false);
    expect(claims("alice", "alice:")).toBe(false);
    expect(claims("bob", "device-1")).toBe(true);
    expect(claims("bob", "device-1")).toBe(true);
    expect(claims("alice", "device-1")).toBe(false);
  });

  it("reads the handle before the last ':', so a GitHub identity owns gh:<login>:<device> and nobody else does", () => {
    users.add("gh");
    expect(handleNamedByPeer("gh:alice:laptop")).toBe("gh:alice");
    expect(handleNamedByPeer("alice:laptop")).toBe("alice");
    expect(handleNamedByPeer("device-1")).toBeNull();
    expect(claims("gh:alice", "gh:alice:laptop")).toBe(true);
    // A relay user named "gh" must not present a GitHub user's id, nor the relay user "alice" the GitHub "gh:alice"'s.
    expect(claims("gh", "gh:alice:laptop")).toBe(false);
    expect(claims("alice", "gh:alice:laptop")).toBe(false);
    expect(claims("gh:alice", "alice:laptop")).toBe(false);
    expect(users.ownerOfPeer("gh:alice:laptop")).toBe("gh:alice");
  });
});
