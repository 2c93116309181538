/**
 * Who may use the relay: one row per handle with the SHA-256 of its bearer token (the token itself is shown once by
 * `user add` and never stored), and which user owns each peer id.
 *
 * What must stay true:
 * - A handle is unique (primary key); re-adding a revoked handle issues a new token and the old one stays dead.
 * - A peer id "<handle>:<device>" belongs to <handle>, split at the LAST ':' (a GitHub identity "gh:<login>" has one
 *   itself, a device part never does), so no user can present another's such id; any other peer id belongs to the
 *   first user who joins with it (peer-bindings.ts: bounded per user, forgotten when long unused, never while live).
 *   The app presents "<handle>:<device>" (main/sync/wire-peer-id.ts), so a device may sign in as another user under a
 *   new id instead of meeting the first user's binding.
 * - Every read goes to SQLite, so a revocation made by another process (the CLI) is seen by the next poll.
 */
import { createHash, randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import { ChopinError } from "../shared/errors.js";
import { MAX_HANDLE_CHARS, RELAY_TOKEN_BYTES } from "./limits.js";
import { PeerBindings, type PeerBindingLimits, type PeerClaim } from "./peer-bindings.js";

export type { PeerClaim } from "./peer-bindings.js";

/** GitHub-style: letters, digits and inner hyphens. */
const HANDLE_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

export interface UserRecord {
  handle: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface AuthenticatedUser {
  handle: string;
  /** Identifies the credential a connection used, so replacing a token cuts connections made with the old one. */
  tokenHash: string;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The handle a "<handle>:<device>" peer id names (split at the last ':'), or null for a plain id. */
export function handleNamedByPeer(peerId: string): string | null {
  const colon = peerId.lastIndexOf(":");
  return colon < 0 ? null : peerId.slice(0, colon);
}

export function isValidHandle(handle: string): boolean {
  return handle.length <= MAX_HANDLE_CHARS && HANDLE_PATTERN.test(handle);
}

/** Throws the sentence `user add` gives for a handle of the wrong shape (the CLI asks before opening the database). */
export function checkHandle(handle: string): void {
  if (!isValidHandle(handle)) {
    throw new ChopinError("invalid-input", `"${handle}" is not a valid handle: use 1-${MAX_HANDLE_CHARS} letters, digits or inner hyphens.`);
  }
}

export class UserStore {
  readonly #db: Database.Database;
  /** Plain peer ids' owners. */
  readonly peerBindings: PeerBindings;

  constructor(db: Database.Database, peerBindingLimits: PeerBindingLimits = {}) {
    this.#db = db;
    this.peerBindings = new PeerBindings(db, peerBindingLimits);
  }

  /** Admits `handle` (or re-admits a revoked one) and returns its new token. */
  add(handle: string, now = Date.now()): { handle: string; token: string } {
    checkHandle(handle);
    // Handles are told apart without case, as GitHub's logins are: "Alice" beside "alice" would be two users whom
    // people (and a device id's "<handle>:" prefix, matched exactly) cannot tell apart.
    const twin = this.#db.prepare("SELECT handle FROM users WHERE lower(handle) = lower(?) AND handle <> ?").get(handle, handle) as
      | { handle: string }
      | undefined;
    if (twin) {
      throw new ChopinError("invalid-input", `"${handle}" differs from the existing user "${twin.handle}" only in case; handles ignore case, so use "${twin.handle}".`);
    }
    const token = randomBytes(RELAY_TOKEN_BYTES).toString("base64url");
    const tokenHash = hashToken(token);
    const existing = this.#db.prepare("SELECT revoked_at FROM users WHERE handle = ?").get(handle) as
      | { revoked_at: number | null }
      | undefined;
    if (existing && existing.revoked_at === null) {
      throw new ChopinError("invalid-input", `A user named "${handle}" already exists. Revoke it first to issue a new token.`);
    }
    if (existing) {
      this.#db
        .prepare("UPDATE users SET token_hash = ?, created_at = ?, revoked_at = NULL WHERE handle = ?")
        .run(tokenHash, now, handle);
    } else {
      this.#db.prepare("INSERT INTO users (handle, token_hash, created_at) VALUES (?, ?, ?)").run(handle, tokenHash, now);
    }
    return { handle, token };
  }

  list(): UserRecord[] {
    const rows = this.#db.prepare("SELECT handle, created_at, revoked_at FROM users ORDER BY handle").all() as {
      handle: string;
      created_at: number;
      revoked_at: number | null;
    }[];
    return rows.map((r) => ({ handle: r.handle, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  /** Returns false when no active user has that handle. */
  revoke(handle: string, now = Date.now()): boolean {
    const result = this.#db
      .prepare("UPDATE users SET revoked_at = ? WHERE handle = ? AND revoked_at IS NULL")
      .run(now, handle);
    return result.changes > 0;
  }

  authenticate(token: string | undefined | null): AuthenticatedUser | null {
    if (!token) return null;
    const tokenHash = hashToken(token);
    const row = this.#db
      .prepare("SELECT handle FROM users WHERE token_hash = ? AND revoked_at IS NULL")
      .get(tokenHash) as { handle: string } | undefined;
    return row ? { handle: row.handle, tokenHash } : null;
  }

  /** handle -> token hash of every user who may connect right now. */
  activeCredentials(): Map<string, string> {
    const rows = this.#db.prepare("SELECT handle, token_hash FROM users WHERE revoked_at IS NULL").all() as {
      handle: string;
      token_hash: string;
    }[];
    return new Map(rows.map((r) => [r.handle, r.token_hash]));
  }

  /** The user `peerId` belongs to ("<handle>:..." or a bound plain id), or undefined for an unclaimed plain id; binds nothing. */
  ownerOfPeer(peerId: string): string | undefined {
    const named = handleNamedByPeer(peerId);
    if (named !== null) return named;
    return this.peerBindings.ownerOf(peerId);
  }

  /**
   * Whether `handle` may present `peerId`; binds an unclaimed plain peer id to `handle`. `isLive` says whether a
   * connection is joined with a peer id right now: such a binding is never forgotten to make room.
   */
  claimPeer(handle: string, peerId: string, isLive: (peerId: string) => boolean, now = Date.now()): PeerClaim {
    const named = handleNamedByPeer(peerId);
    if (named === null) return this.peerBindings.claim(handle, peerId, isLive, now);
    if (named === handle && !peerId.endsWith(":")) return { ok: true };
    return { ok: false, why: "not-theirs", reason: `peer id "${peerId}" does not belong to user "${handle}"` };
  }

  /** A connection joined with `peerId` left: its binding, if any, counts as used now. */
  leftPeer(peerId: string, now = Date.now()): void {
    if (handleNamedByPeer(peerId) === null) this.peerBindings.touch(peerId, now);
  }
}
