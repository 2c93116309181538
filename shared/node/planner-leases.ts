/**
 * Who runs the Planner in each channel (issue #25): a lease per channel in SQLite, with an ownership generation that
 * grows by one with every new owner and never goes back. The relay keeps the table for shared plans (its clock alone
 * decides expiry); an app keeps the same table for its local-only plans. One class, so the model that checks the lease
 * (planner-leases.property.test.ts) checks the code that runs.
 *
 * What must stay true:
 *  - at most one owner per channel at any time, and each owner has a generation no other owner had (a claim is a
 *    compare-and-set inside one SQLite transaction);
 *  - the generation survives restarts and releases; only a new owner moves it, by exactly one;
 *  - expiry is decided by `now` of the table's own clock, never a client's;
 *  - a fenced write is accepted only for the current owner's generation while its lease is live;
 *  - the table stores who holds the lease (user, device, run), never a token.
 */
import type Database from "better-sqlite3";

/** Who holds a lease: a person's app on one device, in one run of it (a restart is a new run). */
export interface LeaseHolder {
  user: string;
  device: string;
  /** This run of the app: leases of an earlier run are released at startup. */
  session: string;
}

export interface LeaseState {
  channelId: string;
  /** 0 before anyone ever owned the channel. */
  generation: number;
  owner: LeaseHolder | null;
  /** Epoch ms by the table's clock; null without an owner. */
  expiresAt: number | null;
}

export type ClaimOutcome = { ok: true; state: LeaseState; fresh: boolean } | { ok: false; state: LeaseState };

/** The table a lease store keeps (created by the relay's and the app's migrations, the same columns in both). */
export const PLANNER_LEASE_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS planner_leases (
    channel_id    TEXT PRIMARY KEY NOT NULL,
    generation    INTEGER NOT NULL CHECK (generation >= 0),
    owner_user    TEXT,
    owner_device  TEXT,
    owner_session TEXT,
    expires_at    INTEGER,
    changed_at    INTEGER NOT NULL,
    CHECK ((owner_user IS NULL) = (expires_at IS NULL))
  ) STRICT;
`;

interface Row {
  channel_id: string;
  generation: number;
  owner_user: string | null;
  owner_device: string | null;
  owner_session: string | null;
  expires_at: number | null;
}

const sameHolder = (a: LeaseHolder | null, b: LeaseHolder) => a !== null && a.user === b.user && a.device === b.device && a.session === b.session;

export class PlannerLeases {
  readonly #db: Database.Database;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(db: Database.Database, options: { ttlMs: number; now?: () => number }) {
    this.#db = db;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** The channel's lease as the table's clock sees it now: an expired owner reads as none. */
  state(channelId: string): LeaseState {
    return this.#live(this.#row(channelId), channelId, this.#now());
  }

  /**
   * Claims the channel for `holder`: granted when nobody holds it or the lease expired (a new owner: generation + 1),
   * or when `holder` holds it already (renewed, same generation). Refused with the current state otherwise.
   */
  claim(channelId: string, holder: LeaseHolder): ClaimOutcome {
    return this.#db.transaction((): ClaimOutcome => {
      const now = this.#now();
      const current = this.#live(this.#row(channelId), channelId, now);
      if (current.owner !== null && !sameHolder(current.owner, holder)) return { ok: false, state: current };
      const fresh = current.owner === null;
      const generation = fresh ? current.generation + 1 : current.generation;
      const expiresAt = now + this.#ttlMs;
      this.#db
        .prepare(
          `INSERT INTO planner_leases (channel_id, generation, owner_user, owner_device, owner_session, expires_at, changed_at)
           VALUES (@channelId, @generation, @user, @device, @session, @expiresAt, @now)
           ON CONFLICT (channel_id) DO UPDATE SET generation = excluded.generation, owner_user = excluded.owner_user,
             owner_device = excluded.owner_device, owner_session = excluded.owner_session, expires_at = excluded.expires_at,
             changed_at = excluded.changed_at`,
        )
        .run({ channelId, generation, ...holder, expiresAt, now });
      return { ok: true, fresh, state: { channelId, generation, owner: { ...holder }, expiresAt } };
    })();
  }

  /** Extends the lease of the owner of `generation`; refused (the owner must stop) when it is not theirs any more. */
  renew(channelId: string, holder: LeaseHolder, generation: number): ClaimOutcome {
    return this.#db.transaction((): ClaimOutcome => {
      const current = this.state(channelId);
      if (!sameHolder(current.owner, holder) || current.generation !== generation) return { ok: false, state: current };
      return this.claim(channelId, holder);
    })();
  }

  /** Gives the channel up, if `holder` holds it in `generation`; the generation stays (the next owner's is one more). */
  release(channelId: string, holder: LeaseHolder, generation: number): LeaseState {
    return this.#db.transaction((): LeaseState => {
      const current = this.state(channelId);
      if (!sameHolder(current.owner, holder) || current.generation !== generation) return current;
      return this.#clear(channelId, current.generation);
    })();
  }

  /** An editor's reset: whoever holds the channel loses it. Returns the state before (to say whose lease ended). */
  reset(channelId: string): { before: LeaseState; after: LeaseState } {
    return this.#db.transaction(() => {
      const before = this.state(channelId);
      return { before, after: before.owner === null ? before : this.#clear(channelId, before.generation) };
    })();
  }

  /** Releases every lease `device` held in a run other than `session` (an app starting again); returns the channels. */
  releaseEarlierRuns(user: string, device: string, session: string): string[] {
    return this.#db.transaction(() => {
      const rows = this.#db
        .prepare("SELECT channel_id, generation FROM planner_leases WHERE owner_user = ? AND owner_device = ? AND owner_session IS NOT ?")
        .all(user, device, session) as { channel_id: string; generation: number }[];
      for (const row of rows) this.#clear(row.channel_id, row.generation);
      return rows.map((row) => row.channel_id);
    })();
  }

  /** The fence: whether `holder`'s write made under `generation` may land now (they own that generation, still live). */
  accepts(channelId: string, holder: LeaseHolder, generation: number): boolean {
    const current = this.state(channelId);
    return sameHolder(current.owner, holder) && current.generation === generation;
  }

  #clear(channelId: string, generation: number): LeaseState {
    this.#db
      .prepare("UPDATE planner_leases SET owner_user = NULL, owner_device = NULL, owner_session = NULL, expires_at = NULL, changed_at = ? WHERE channel_id = ?")
      .run(this.#now(), channelId);
    return { channelId, generation, owner: null, expiresAt: null };
  }

  #row(channelId: string): Row | undefined {
    return this.#db.prepare("SELECT channel_id, generation, owner_user, owner_device, owner_session, expires_at FROM planner_leases WHERE channel_id = ?").get(channelId) as
      | Row
      | undefined;
  }

  #live(row: Row | undefined, channelId: string, now: number): LeaseState {
    if (!row) return { channelId, generation: 0, owner: null, expiresAt: null };
    const live = row.owner_user !== null && row.expires_at !== null && row.expires_at > now;
    return {
      channelId,
      generation: row.generation,
      owner: live ? { user: row.owner_user!, device: row.owner_device!, session: row.owner_session! } : null,
      expiresAt: live ? row.expires_at : null,
    };
  }
}
