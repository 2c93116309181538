/**
 * Which relay user owns each plain peer id (any id that is not "<handle>:<device>", whose owner its name says): the
 * first user who joins with it (the peer_bindings table). A binding is what keeps another user from joining as, or
 * relaying presence under, a peer id that user's device uses; every fresh id a client joins with makes one, so they
 * are bounded and expire instead of piling up forever.
 *
 * What must stay true:
 * - A binding with a live connection (isLive: a socket joined with that id right now) is never forgotten, so no other
 *   user can take over a peer id in use.
 * - A user holds at most `maxPerUser` bindings: claiming one more forgets that user's least recently used bindings
 *   with no live connection; while all of them are live the claim is refused (all-in-use), nothing is forgotten.
 * - A binding not used (joined or left with) for `ttlMs` is forgotten at the next claim, unless it is live.
 * - Re-claiming one's own binding, or the refusal of another user's, changes no other binding.
 */
import type Database from "better-sqlite3";
import { RELAY_MAX_PEER_BINDINGS_PER_USER, RELAY_PEER_BINDING_TTL_MS } from "./limits.js";

/** Whether a claim stands; a refusal says why, in a sentence for the client's close reason and the log. */
export type PeerClaim =
  | { ok: true }
  /** Another user holds this peer id. */
  | { ok: false; why: "not-theirs"; reason: string }
  /** The user already holds the most bindings, each with a live connection; it may work once one closes. */
  | { ok: false; why: "all-in-use"; reason: string };

export interface PeerBindingLimits {
  /** Default RELAY_MAX_PEER_BINDINGS_PER_USER. */
  maxPerUser?: number;
  /** Default RELAY_PEER_BINDING_TTL_MS. */
  ttlMs?: number;
}

export class PeerBindings {
  readonly #db: Database.Database;
  readonly #maxPerUser: number;
  readonly #ttlMs: number;

  constructor(db: Database.Database, limits: PeerBindingLimits = {}) {
    this.#db = db;
    this.#maxPerUser = limits.maxPerUser ?? RELAY_MAX_PEER_BINDINGS_PER_USER;
    this.#ttlMs = limits.ttlMs ?? RELAY_PEER_BINDING_TTL_MS;
  }

  /** The user bound to `peerId`, if any. */
  ownerOf(peerId: string): string | undefined {
    const row = this.#db.prepare("SELECT handle FROM peer_bindings WHERE peer_id = ?").get(peerId) as { handle: string } | undefined;
    return row?.handle;
  }

  /** Binds `peerId` to `handle` unless another user holds it; marks it used now. */
  claim(handle: string, peerId: string, isLive: (peerId: string) => boolean, now: number): PeerClaim {
    return this.#db.transaction((): PeerClaim => {
      this.#forgetExpired(isLive, now);
      const owner = this.ownerOf(peerId);
      if (owner !== undefined && owner !== handle) {
        return { ok: false, why: "not-theirs", reason: `peer id "${peerId}" does not belong to user "${handle}"` };
      }
      if (owner === handle) {
        this.touch(peerId, now);
        return { ok: true };
      }
      if (!this.#makeRoom(handle, isLive)) {
        return {
          ok: false,
          why: "all-in-use",
          reason: `user "${handle}" already has ${this.#maxPerUser} peer ids connected, the most per user; close one first`,
        };
      }
      this.#db.prepare("INSERT INTO peer_bindings (peer_id, handle, bound_at, used_at) VALUES (?, ?, ?, ?)").run(peerId, handle, now, now);
      return { ok: true };
    }).immediate();
  }

  /** Marks `peerId`'s binding, if any, as used at `now` (a connection with it joined or left). */
  touch(peerId: string, now: number): void {
    this.#db.prepare("UPDATE peer_bindings SET used_at = ? WHERE peer_id = ?").run(now, peerId);
  }

  /** Bindings of `handle`, for tests and the operator. */
  countOf(handle: string): number {
    return (this.#db.prepare("SELECT COUNT(*) AS n FROM peer_bindings WHERE handle = ?").get(handle) as { n: number }).n;
  }

  /**
   * Forgets the least recently used bindings of `handle` with no live connection until one more fits under the
   * bound; false, having forgotten nothing, when that many are not free.
   */
  #makeRoom(handle: string, isLive: (peerId: string) => boolean): boolean {
    const excess = this.countOf(handle) - this.#maxPerUser + 1;
    if (excess <= 0) return true;
    const forget: string[] = [];
    const rows = this.#db
      .prepare("SELECT peer_id FROM peer_bindings WHERE handle = ? ORDER BY used_at, peer_id")
      .iterate(handle) as IterableIterator<{ peer_id: string }>;
    for (const { peer_id } of rows) {
      if (!isLive(peer_id)) forget.push(peer_id);
      if (forget.length === excess) break;
    }
    if (forget.length < excess) return false;
    const remove = this.#db.prepare("DELETE FROM peer_bindings WHERE peer_id = ?");
    for (const peerId of forget) remove.run(peerId);
    return true;
  }

  /** Forgets every binding (of any user) unused for the TTL, except those with a live connection. */
  #forgetExpired(isLive: (peerId: string) => boolean, now: number): void {
    const expired = this.#db
      .prepare("SELECT peer_id FROM peer_bindings WHERE used_at <= ?")
      .all(now - this.#ttlMs) as { peer_id: string }[];
    const remove = this.#db.prepare("DELETE FROM peer_bindings WHERE peer_id = ?");
    for (const { peer_id } of expired) if (!isLive(peer_id)) remove.run(peer_id);
  }
}
