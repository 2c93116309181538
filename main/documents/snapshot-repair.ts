/**
 * Snapshot rows are written at most every SNAPSHOT_WRITE_INTERVAL_MS and on close, so a crash can leave a plan with
 * no row (made just before) or a stale one (renamed or edited just before). Search and the first paint answer from
 * those rows, so a plan was missing from body-text search, or found under its old title, until someone opened it.
 * At start (and when the team's list arrives) every listed plan this device holds whose row is missing, names another
 * title than its list entry, or is older than the entry's last change, is loaded once in the background (loading
 * rewrites its row: plan-access.ts) and let go again.
 * What must stay true: one plan at a time, never a plan this device does not hold (team prefetch fetches those), and
 * a plan that cannot be loaded (damaged, deleted meanwhile) is skipped; a pass stops at close.
 */
import type { Database } from "better-sqlite3";
import type { IndexEntry } from "../../shared/schema/workspace-index.js";
import { readSnapshotStamps } from "./snapshot-store.js";

/** Whether `entry`'s plan needs its snapshot row written again, given the rows' stamps. */
export function snapshotIsStale(stamp: { title: string; savedAt: number } | undefined, entry: IndexEntry): boolean {
  return stamp === undefined || stamp.title !== entry.title || stamp.savedAt < entry.updatedAt;
}

export interface SnapshotRepairOptions {
  db: Database;
  /** The listed plans with their entries. */
  listed(): Iterable<[string, IndexEntry]>;
  /** Whether this device holds the plan (loaded or in storage). */
  held(documentId: string): boolean;
  /** Loads the plan (its row is rewritten), writes the row now and lets the plan go unless it is in use. */
  visit(documentId: string): Promise<void>;
}

export class SnapshotRepair {
  readonly #options: SnapshotRepairOptions;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  /** Plans visited since start, for tests. */
  visited = 0;

  constructor(options: SnapshotRepairOptions) {
    this.#options = options;
  }

  /** Starts a pass (or one more after the running one, when the list may have grown meanwhile). */
  run(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#pass().finally(() => {
      this.#running = null;
      if (this.#again && !this.#stopped) {
        this.#again = false;
        void this.run();
      }
    });
    return this.#running;
  }

  stop(): void {
    this.#stopped = true;
  }

  async #pass(): Promise<void> {
    const { db, listed, held, visit } = this.#options;
    // One query for every row's title and date: reading each row (its text too) cost a plan's text per listed plan.
    let stamps: Map<string, { title: string; savedAt: number }>;
    try {
      stamps = readSnapshotStamps(db);
    } catch {
      return;
    }
    const stale = [...listed()].filter(([id, entry]) => held(id) && snapshotIsStale(stamps.get(id), entry)).map(([id]) => id);
    for (const id of stale) {
      if (this.#stopped) return;
      try {
        await visit(id);
        this.visited += 1;
      } catch {
        // Unreadable or gone: its row stays as it is; opening it says why.
      }
    }
  }
}
