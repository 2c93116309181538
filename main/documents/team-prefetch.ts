/**
 * Brings every plan the team's list names onto this device, in the background, so a teammate's plan opens offline
 * like one's own. Without it a shared plan was only listed here (the team index syncs) until someone opened it: with
 * the relay gone it was "not found", though the list showed it (data-integrity audit).
 *
 * What must stay true: at most TEAM_PREFETCH_CONCURRENCY fetches run at once, so a device joining a large team does
 * not ask the relay for everything together; every change of the team index starts a run for what it newly names,
 * and a fetch that failed (offline, not on the relay yet) waits for retryFailed(), which the core calls on every
 * (re)connection to the relay: the team index changes with every teammate's edit, and retrying on each of those
 * would look the same documents up again and again while offline; nothing here writes a document (fetching goes
 * through the same find() opening a plan does, which also indexes and snapshots it). What it remembers of an id (held
 * here, failed) is only kept while the team's list names it and the plan has not been deleted here: the list churns
 * over a long session and a held id was never let go (resource audit), and a deleted plan the list names again must be
 * looked up again, not skipped as held.
 */
import { TEAM_PREFETCH_CONCURRENCY } from "../util/limits.js";

export interface TeamPrefetchOptions {
  /** The ids the team's list names now. */
  teamIds(): Iterable<string>;
  /** Whether this device holds the document already (loaded, or in storage). */
  held(id: string): boolean;
  /** Fetches one document (resolves once it is here; rejects when it cannot be had now). */
  fetch(id: string): Promise<unknown>;
  concurrency?: number;
}

export class TeamPrefetch {
  readonly #options: TeamPrefetchOptions;
  readonly #concurrency: number;
  /** Known to be on this device: not looked up again while the list names it (run() drops the ids it no longer names). */
  readonly #held = new Set<string>();
  readonly #queued = new Set<string>();
  readonly #inFlight = new Set<string>();
  /** Failed since the last retryFailed(): runs skip them (and drop those the list no longer names). */
  readonly #failed = new Set<string>();
  #stopped = false;
  /** Fetches completed since start, for tests. */
  fetched = 0;

  constructor(options: TeamPrefetchOptions) {
    this.#options = options;
    this.#concurrency = options.concurrency ?? TEAM_PREFETCH_CONCURRENCY;
  }

  /** Queues every listed document this device lacks and starts fetching. Cheap when nothing is missing. */
  run(): void {
    if (this.#stopped) return;
    const named = new Set(this.#options.teamIds());
    // Every change of the list runs this, so nothing is remembered for long about an id the list no longer names (a
    // queued one is not fetched: a plan that left the list is not the team's to bring here).
    for (const known of [this.#held, this.#failed, this.#queued]) {
      for (const id of known) if (!named.has(id)) known.delete(id);
    }
    for (const id of named) {
      if (this.#held.has(id) || this.#queued.has(id) || this.#inFlight.has(id) || this.#failed.has(id)) continue;
      if (this.#options.held(id)) this.#held.add(id);
      else this.#queued.add(id);
    }
    this.#pump();
  }

  /** The plan was deleted on this device: if the list still names it, the next run looks it up again. */
  forget(id: string): void {
    this.#held.delete(id);
  }

  /** How many ids are remembered as held or failed (tests check it follows the list). */
  get remembered(): number {
    return this.#held.size + this.#failed.size;
  }

  /** Runs again with the fetches that failed (the relay link is back). */
  retryFailed(): void {
    this.#failed.clear();
    this.run();
  }

  /** Whether a fetch is queued or running (tests wait for quiet). */
  get busy(): boolean {
    return this.#queued.size > 0 || this.#inFlight.size > 0;
  }

  stop(): void {
    this.#stopped = true;
    this.#queued.clear();
  }

  #pump(): void {
    while (!this.#stopped && this.#inFlight.size < this.#concurrency && this.#queued.size > 0) {
      const id = this.#queued.values().next().value as string;
      this.#queued.delete(id);
      this.#inFlight.add(id);
      this.#options.fetch(id).then(
        () => {
          this.#held.add(id);
          this.fetched++;
        },
        () => void this.#failed.add(id),
      ).finally(() => {
        this.#inFlight.delete(id);
        this.#pump();
      });
    }
  }
}
