/**
 * The fake OpenAI's mutable world: the queue of scripted replies (one consumed per accepted completion request), the
 * reply used when the queue is empty, and the log of what was asked. Both the in-process API and the HTTP control
 * surface drive this one object, so a test in another process sees exactly what an in-process test would.
 */
import { checkReply } from "./protocol.js";
import type { RecordedRequest, RejectedRequest, ScriptedReply } from "./types.js";

/** How long a wait for requests may take before it fails with what did arrive; generous for a cold e2e start. */
export const DEFAULT_WAIT_MS = 10_000;

const validated = (reply: ScriptedReply): ScriptedReply => (typeof reply === "function" ? reply : checkReply(reply));

export class FakeOpenAIState {
  /** Accepted completion requests, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  readonly rejected: RejectedRequest[] = [];
  /** Every API request (completions, models, rejected ones), not the control surface. */
  requestCount = 0;
  #queue: ScriptedReply[] = [];
  #defaultReply: ScriptedReply;
  #waiters: { count: number; resolve: () => void }[] = [];
  /** Streams holding (TextReply.holdAfterChunks) until release(). */
  #holds = new Set<() => void>();
  #holdWaiters: (() => void)[] = [];

  constructor(defaultReply: ScriptedReply) {
    this.#defaultReply = validated(defaultReply);
  }

  script(replies: ScriptedReply[]): void {
    // Validate all first so a bad entry does not leave half a script queued.
    const checked = replies.map(validated);
    this.#queue.push(...checked);
  }

  setDefaultReply(reply: ScriptedReply): void {
    this.#defaultReply = validated(reply);
  }

  get pendingReplies(): number {
    return this.#queue.length;
  }

  takeReply(): ScriptedReply {
    return this.#queue.shift() ?? this.#defaultReply;
  }

  record(request: RecordedRequest): void {
    this.requests.push(request);
    const ready = this.#waiters.filter((w) => this.requests.length >= w.count);
    this.#waiters = this.#waiters.filter((w) => this.requests.length < w.count);
    for (const w of ready) w.resolve();
  }

  /** Resolves once at least `count` completion requests have been accepted (counting ones already in). */
  waitForRequests(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedRequest[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests.slice());
    return new Promise((resolve, reject) => {
      const waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.requests.slice());
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`fake OpenAI: waited ${timeoutMs} ms for ${count} completion request(s), got ${this.requests.length}`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** How many streams hold now, mid-reply, for release(). */
  get heldStreams(): number {
    return this.#holds.size;
  }

  /** Resolves when release() is called (or `ended` resolves first: the client aborted, the fake closed). */
  hold(ended: Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#holds.delete(done);
        resolve();
      };
      this.#holds.add(done);
      void ended.then(done);
      for (const wake of this.#holdWaiters.splice(0)) wake();
    });
  }

  /** Lets every held stream go on to its end. */
  release(): number {
    const held = [...this.#holds];
    for (const go of held) go();
    return held.length;
  }

  /** Resolves once a stream holds (at once when one does already). */
  whenHeld(): Promise<void> {
    if (this.#holds.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#holdWaiters.push(resolve));
  }

  /** Clears the queue and the logs; the default reply stays. */
  reset(): void {
    this.#queue = [];
    this.requests.length = 0;
    this.rejected.length = 0;
    this.requestCount = 0;
  }
}
