/**
 * The shares of the relay this device is configured for, kept in memory beside their rows (main/store/relay-shares.ts),
 * because the share policy asks about every message the relay link carries.
 *
 * What must stay true: only rows of the current scope (relay address, and its team once named) count; switching the
 * relay reloads from the database, so another relay's shares never apply; a row is written before memory says it
 * exists, and memory forgets before the database does (a removal still waiting to be written already counts).
 */
import type { Database } from "better-sqlite3";
import {
  bindTeam,
  forgetAllShares,
  markEntered,
  recordShare,
  sharesOf,
  type RelayScope,
  type ShareOrigin,
  type ShareRow,
} from "../store/relay-shares.js";

export class ShareRecords {
  readonly #db: Database;
  #scope: RelayScope | null = null;
  readonly #rows = new Map<string, ShareRow>();

  constructor(db: Database) {
    this.#db = db;
  }

  /** The relay shares belong to now, or null when none is configured. */
  get scope(): RelayScope | null {
    return this.#scope;
  }

  /** The relay address changed (null: none). Shares of any other address stop counting at once. */
  setRelay(url: string | null): void {
    if (this.#scope?.url === url) return;
    this.#scope = url === null ? null : { url, teamIndexId: null };
    this.#reload();
  }

  /**
   * The relay's team index id: `confirmed` when the relay itself just named it (then shares made for the address
   * before the team was known are bound to it); a cached id only narrows which rows count.
   */
  setTeam(teamIndexId: string | null, confirmed: boolean): void {
    const scope = this.#scope;
    if (!scope) return;
    if (confirmed && teamIndexId !== null) {
      try {
        bindTeam(this.#db, scope.url, teamIndexId);
      } catch {
        // Unbound rows still count for this address (they match any team of it); the next confirmation binds them.
      }
    }
    this.#scope = { url: scope.url, teamIndexId };
    this.#reload();
  }

  has(documentId: string): boolean {
    return this.#rows.has(documentId);
  }

  get(documentId: string): ShareRow | undefined {
    return this.#rows.get(documentId);
  }

  all(): ShareRow[] {
    return [...this.#rows.values()];
  }

  /** Writes the share (throws what the database throws), then counts it. False when there is no relay to share with. */
  record(documentId: string, origin: ShareOrigin, now: number, enteredAt: number | null): boolean {
    const scope = this.#scope;
    if (!scope) return false;
    recordShare(this.#db, documentId, scope, origin, now, enteredAt);
    this.#rows.set(documentId, this.#rows.get(documentId) ?? { documentId, origin, sharedAt: now, enteredAt });
    return true;
  }

  /** This device saw the document on the team's list (written once; a refused write is tried on the next sighting). */
  markEntered(documentId: string, now: number): void {
    const row = this.#rows.get(documentId);
    const scope = this.#scope;
    if (!row || row.enteredAt !== null || !scope) return;
    markEntered(this.#db, documentId, scope, now);
    row.enteredAt = now;
  }

  /** Stops counting the share in memory (its row goes with the removal record: team-removal-records.ts). */
  drop(documentId: string): void {
    this.#rows.delete(documentId);
  }

  /** The document left this device: no relay's share of it remains (throws what the database throws). */
  forgetEverywhere(documentId: string): void {
    forgetAllShares(this.#db, documentId);
    this.#rows.delete(documentId);
  }

  #reload(): void {
    this.#rows.clear();
    if (!this.#scope) return;
    for (const row of sharesOf(this.#db, this.#scope)) this.#rows.set(row.documentId, row);
  }
}
