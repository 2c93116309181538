/**
 * The Planner's writes (issue #25, "Fenced writes"): whatever the owner writes on the Planner's behalf, to the plan or
 * its conversation, is prepared on a fork of this replica's document under an actor of its own, and published to the
 * lease's keeper as (document id, ownership generation, change bytes). The keeper checks the generation atomically
 * with applying the change and only then stores and relays it; this replica takes the change back from the keeper like
 * anyone's.
 *
 * What must stay true: this replica never holds a Planner change the keeper has not accepted, so a person's later
 * edits here never depend on one, and a refused write is never shown as published; a write is prepared only while this
 * app owns the channel under that generation, but it is the keeper's fence that decides, also for output that arrives
 * late (prepared before a partition, sent after it, when another app may own generation + 1). A write made for a turn
 * names its turn fence (turn-fence.ts) and is prepared only while the replica says the turn was not stopped and its
 * session generation is current: refused here, with the check named, before any bytes exist.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import { randomBytes } from "node:crypto";
import { ChopinError } from "../../shared/errors.js";
import type { FencedWriteRefusal } from "../../shared/lease-wire.js";
import { PLANNER_FENCED_WRITE_LINK_WAIT_MS } from "../util/limits.js";
import type { LeaseClient } from "./lease-client.js";
import type { TurnFence, TurnFenceRefusal } from "./turn-fence.js";

export type FencedWriteOutcome = { ok: true; generation: number; hashes: string[] } | { ok: false; generation: number; refusal: FencedWriteRefusal | "not-owner" | "unreachable"; reason: string };

/** A prepared write: its bytes are fixed, its generation the one it was prepared under. */
export interface PreparedWrite {
  channelId: DocumentId;
  documentId: DocumentId;
  generation: number;
  changes: Uint8Array[];
  hashes: string[];
}

export interface FencedWriterDeps {
  repo: Repo;
  /** The keeper of the channel's lease now (the relay's client for a shared plan, this device's otherwise). */
  clientFor(channelId: DocumentId): LeaseClient;
  /** Told of every refused write, so the owner's window shows it as refused. */
  refused?(outcome: Extract<FencedWriteOutcome, { ok: false }>, write: PreparedWrite): void;
  /** Why a turn's write must not be made now (stopped, a new session), read from this replica; null when it may. */
  turnFence?(channelId: DocumentId, fence: TurnFence): Promise<TurnFenceRefusal | null>;
  linkWaitMs?: number;
}

export class FencedWriter {
  readonly #deps: FencedWriterDeps;

  constructor(deps: FencedWriterDeps) {
    this.#deps = deps;
  }

  /**
   * Prepares `change` on a fork of the document (the channel's plan or its conversation) under the generation this
   * app owns the channel with now. Refused (not-owner) when it owns none, or another than `generation` (the one a turn
   * began under, when given); refused ('forbidden', details.check naming
   * the turn fence's check) when the write is a turn's and the turn was stopped or its session generation moved on.
   */
  async prepare<T>(channelId: DocumentId, documentId: DocumentId, change: (doc: T) => void, options: { message?: string; time?: number; fence?: TurnFence; generation?: number } = {}): Promise<PreparedWrite> {
    const generation = this.#deps.clientFor(channelId).owns(channelId);
    if (generation === null) throw new ChopinError("forbidden", "This app does not run the Planner here now, so it writes nothing on the Planner's behalf.");
    // A turn's write is prepared under the generation the turn began under, never a later one this app took since.
    const began = options.generation ?? options.fence?.ownershipGeneration;
    if (began !== undefined && began !== generation) {
      throw new ChopinError("forbidden", `The turn began under ownership generation ${began}; this app runs the Planner under ${generation} now, so it writes nothing of that turn.`);
    }
    if (options.fence) {
      if (!this.#deps.turnFence) throw new ChopinError("internal", "A turn's write was asked for where no turn fence is wired.");
      const refusal = await this.#deps.turnFence(channelId, options.fence);
      if (refusal) throw new ChopinError("forbidden", refusal.reason, { check: refusal.check, ...(refusal.stoppedBy !== undefined ? { stoppedBy: refusal.stoppedBy } : {}) });
    }
    const { fence: _fence, generation: _generation, ...changeOptions } = options;
    const handle = (await this.#deps.repo.find<T>(documentId)) as DocHandle<T>;
    const base = handle.doc();
    // An actor of its own: the fork's change must never share a sequence number with this replica's later edits.
    const fork = A.change(A.clone(base, { actor: randomBytes(16).toString("hex") }), changeOptions, change);
    const changes = A.getChanges(base, fork);
    if (changes.length === 0) throw new ChopinError("invalid-input", "The Planner's write changed nothing.");
    const hashes = changes.map((bytes) => A.decodeChange(bytes).hash);
    return { channelId, documentId, generation, changes, hashes };
  }

  /**
   * Publishes a prepared write through the lease's keeper; waits for the link to the keeper while it is down (up to
   * PLANNER_FENCED_WRITE_LINK_WAIT_MS), since the fence, not the timing, keeps a late write out.
   */
  async publish(write: PreparedWrite): Promise<FencedWriteOutcome> {
    const client = this.#deps.clientFor(write.channelId);
    const waitMs = this.#deps.linkWaitMs ?? PLANNER_FENCED_WRITE_LINK_WAIT_MS;
    let outcome: FencedWriteOutcome;
    const deadline = performance.now() + waitMs;
    try {
      for (;;) {
        if (!(await client.whenLinked(Math.max(0, deadline - performance.now())))) {
          throw new ChopinError("relay-unavailable", "The relay could not be reached to publish the Planner's write; it was not published.");
        }
        try {
          const answer = await client.fencedWrite(write.channelId, write.documentId, write.generation, write.changes);
          outcome = answer.ok ? { ok: true, generation: write.generation, hashes: write.hashes } : { ...answer, generation: write.generation };
          break;
        } catch (error) {
          // Not sent, or sent without an answer (the link went, the answer was lost): the same bytes again on the next
          // link. A keeper that took them the first time answers that it holds them; one that did not checks the fence.
          if (!(error instanceof ChopinError && (error.code === "relay-unavailable" || error.code === "timeout"))) throw error;
          if (performance.now() >= deadline) throw error;
        }
      }
    } catch (error) {
      outcome = { ok: false, generation: write.generation, refusal: "unreachable", reason: error instanceof Error ? error.message : String(error) };
    }
    if (!outcome.ok) this.#deps.refused?.(outcome, write);
    return outcome;
  }

  /** Resolves once this replica holds the write's changes (taken back from the keeper), or false after `timeoutMs`. */
  async arrived(write: PreparedWrite, timeoutMs: number): Promise<boolean> {
    const handle = await this.#deps.repo.find(write.documentId);
    const holds = () => A.hasHeads(handle.doc() as A.Doc<unknown>, write.hashes);
    if (holds()) return true;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        handle.off("heads-changed", check);
        resolve(value);
      };
      const check = () => holds() && done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      timer.unref?.();
      handle.on("heads-changed", check);
    });
  }

  /** Prepares and publishes in one go. */
  async write<T>(channelId: DocumentId, documentId: DocumentId, change: (doc: T) => void): Promise<FencedWriteOutcome> {
    let prepared: PreparedWrite;
    try {
      prepared = await this.prepare(channelId, documentId, change);
    } catch (error) {
      if (error instanceof ChopinError && error.code === "forbidden") return { ok: false, generation: 0, refusal: "not-owner", reason: error.message };
      throw error;
    }
    return this.publish(prepared);
  }
}
