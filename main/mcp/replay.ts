/**
 * Idempotent execution of MCP writes. A key's first successful result is stored in mcp_replays; a retry with the
 * same key and the same input (fingerprint) gets that result back with status "replayed", even after a restart;
 * the same key with different input is refused with 'idempotency-conflict'. A refused call stores nothing, so it can
 * be retried. A write applied in memory whose save failed is remembered (in memory, the newest
 * MAX_MCP_UNCONFIRMED_WRITES): its retry saves it and records it, and never applies the edit a second time. Writes are
 * serialized so check, apply and record cannot interleave with another write.
 */
import { createHash } from "node:crypto";
import type { Database } from "better-sqlite3";
import { ChopinError } from "../../shared/errors.js";
import { MAX_MCP_UNCONFIRMED_WRITES } from "../util/limits.js";
import { saveFailure } from "../util/save-failure.js";
import { findReplay, insertReplay, pruneReplays } from "../store/mcp-replays.js";

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function fingerprintOf(tool: string, input: Record<string, unknown>): string {
  const { idempotencyKey: _key, ...rest } = input;
  return createHash("sha256").update(JSON.stringify(stable({ tool, input: rest }))).digest("hex");
}

/** A write applied in memory whose save (or replay record) has not succeeded yet. */
interface Unconfirmed {
  tool: string;
  fingerprint: string;
  result: Record<string, unknown> & { status: string };
}

export class ReplayLog {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #maxUnconfirmed: number;
  #queue: Promise<unknown> = Promise.resolve();
  /** idempotency key -> its applied, unsaved write; a Map, so the first entry is the oldest. */
  readonly #unconfirmed = new Map<string, Unconfirmed>();

  constructor(db: Database, now: () => number = Date.now, maxUnconfirmed = MAX_MCP_UNCONFIRMED_WRITES) {
    this.#db = db;
    this.#now = now;
    this.#maxUnconfirmed = maxUnconfirmed;
    // Once per server start: bounded growth without a cost on every write.
    pruneReplays(db, now());
  }

  /** Writes applied in memory and not yet confirmed on disk (their keys' retries save them). */
  get unconfirmedCount(): number {
    return this.#unconfirmed.size;
  }

  /**
   * Runs `apply` once per key, then `persist` until it succeeds; returns the result with `status` set to
   * `freshStatus`, or the stored one replayed. `apply` changes memory only; `persist` puts that change on disk.
   */
  run<R extends Record<string, unknown>>(
    tool: string,
    input: Record<string, unknown> & { idempotencyKey: string },
    freshStatus: string,
    apply: () => Promise<R>,
    persist: (result: R) => Promise<void>,
  ): Promise<R & { status: string }> {
    const next = this.#queue.then(() => this.#runNow(tool, input, freshStatus, apply, persist));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #runNow<R extends Record<string, unknown>>(
    tool: string,
    input: Record<string, unknown> & { idempotencyKey: string },
    freshStatus: string,
    apply: () => Promise<R>,
    persist: (result: R) => Promise<void>,
  ): Promise<R & { status: string }> {
    const key = input.idempotencyKey;
    const fingerprint = fingerprintOf(tool, input);
    const replayed = this.#replay(key, tool, fingerprint);
    if (replayed) return replayed as R & { status: string };
    const pending = this.#unconfirmed.get(key);
    if (pending) checkSameRequest(pending, tool, fingerprint);
    const result = (pending?.result ?? { ...(await apply()), status: freshStatus }) as R & { status: string };
    // Remembered before the save: from here on the edit is in memory, and a retry must not make it twice.
    if (!pending) this.#remember(key, { tool, fingerprint, result });
    await persist(result);
    let stored: boolean;
    try {
      stored = insertReplay(this.#db, { idempotencyKey: key, tool, fingerprint, resultJson: JSON.stringify(result), createdAt: this.#now() });
    } catch (error) {
      throw saveFailure(error);
    }
    this.#unconfirmed.delete(key);
    // Another process holding the same database won the key; its result is the one that counts.
    if (!stored) return (this.#replay(key, tool, fingerprint) ?? result) as R & { status: string };
    return result;
  }

  #remember(key: string, write: Unconfirmed): void {
    this.#unconfirmed.set(key, write);
    if (this.#unconfirmed.size > this.#maxUnconfirmed) this.#unconfirmed.delete(this.#unconfirmed.keys().next().value!);
  }

  #replay(key: string, tool: string, fingerprint: string): Record<string, unknown> | null {
    const row = findReplay(this.#db, key);
    if (!row) return null;
    checkSameRequest(row, tool, fingerprint);
    return { ...(JSON.parse(row.resultJson) as Record<string, unknown>), status: "replayed" };
  }
}

/** A key names one request: the same key with another tool or input is refused, whether it was saved or not. */
function checkSameRequest(earlier: { tool: string; fingerprint: string }, tool: string, fingerprint: string): void {
  if (earlier.tool !== tool || earlier.fingerprint !== fingerprint) {
    throw new ChopinError("idempotency-conflict", "That idempotency key was already used for a different request.", {
      tool: earlier.tool,
    });
  }
}
