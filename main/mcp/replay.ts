/**
 * Idempotent execution of MCP writes. A key's first successful result is stored in mcp_replays; a retry with the
 * same key and the same input (fingerprint) gets that result back with status "replayed", even after a restart;
 * the same key with different input is refused with 'idempotency-conflict'. Failed calls store nothing, so they
 * can be retried. Writes are serialized so check, apply and record cannot interleave with another write.
 */
import { createHash } from "node:crypto";
import type { Database } from "better-sqlite3";
import { ChopinError } from "../../shared/errors.js";
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

export class ReplayLog {
  readonly #db: Database;
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
    // Once per server start: bounded growth without a cost on every write.
    pruneReplays(db, now());
  }

  /** Runs `apply` once per key; returns its result with `status` set to `freshStatus`, or the stored one replayed. */
  run<R extends Record<string, unknown>>(
    tool: string,
    input: Record<string, unknown> & { idempotencyKey: string },
    freshStatus: string,
    apply: () => Promise<R>,
  ): Promise<R & { status: string }> {
    const next = this.#queue.then(() => this.#runNow(tool, input, freshStatus, apply));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #runNow<R extends Record<string, unknown>>(
    tool: string,
    input: Record<string, unknown> & { idempotencyKey: string },
    freshStatus: string,
    apply: () => Promise<R>,
  ): Promise<R & { status: string }> {
    const fingerprint = fingerprintOf(tool, input);
    const replayed = this.#replay(input.idempotencyKey, tool, fingerprint);
    if (replayed) return replayed as R & { status: string };
    const result = { ...(await apply()), status: freshStatus };
    const stored = insertReplay(this.#db, {
      idempotencyKey: input.idempotencyKey,
      tool,
      fingerprint,
      resultJson: JSON.stringify(result),
      createdAt: this.#now(),
    });
    // Another process holding the same database won the key; its result is the one that counts.
    if (!stored) return (this.#replay(input.idempotencyKey, tool, fingerprint) ?? result) as R & { status: string };
    return result;
  }

  #replay(key: string, tool: string, fingerprint: string): Record<string, unknown> | null {
    const row = findReplay(this.#db, key);
    if (!row) return null;
    if (row.tool !== tool || row.fingerprint !== fingerprint) {
      throw new ChopinError("idempotency-conflict", "That idempotency key was already used for a different request.", {
        tool: row.tool,
      });
    }
    return { ...(JSON.parse(row.resultJson) as Record<string, unknown>), status: "replayed" };
  }
}
