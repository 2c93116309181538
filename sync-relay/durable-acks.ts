/**
 * An acknowledgement from the relay means "stored". A client counts its changes as waiting ("N changes waiting",
 * main/sync/pending-changes.ts) until a sync message from the relay shows heads that include them; every such message
 * carries the relay's heads in memory, and the relay saved only up to RELAY_SAVE_DEBOUNCE_MS later. So a relay that
 * died in between, or could not write at all (a full disk, a read-only file system), had told clients their changes
 * were safe when they were not; and a failed save was an unhandled rejection that killed the relay.
 *
 * This sits between the Repo and the network adapter and wraps the Repo's StorageSubsystem:
 * - A sync message whose document has heads not yet stored is held, in order per document, until a save that began
 *   after it was held has completed; a save of that document is asked for RELAY_ACK_SAVE_DELAY_MS after the first hold
 *   (the Repo's own throttled save often comes first). Change frames of the fast path are not acknowledgements and go
 *   out at once.
 * - A save that fails is logged once per document with the reason, is not rethrown (the Repo's throttled saves have
 *   nobody to catch it), leaves the document's messages held, and is retried every RELAY_SAVE_RETRY_MS; the first
 *   success says so in the log and releases what was held.
 *
 * What must stay true:
 * - No sync message leaves with heads the relay has not stored (durable as the relay's database is: WAL, NORMAL).
 * - Messages of one document leave in the order the Repo sent them (the sync protocol counts on it).
 * - At most RELAY_MAX_HELD_SYNC_MESSAGES wait in all; past that the session that would add one is closed 1013 (it
 *   reconnects with a fresh sync state, so no message of its protocol is lost half-way).
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId, Message, Repo } from "@automerge/automerge-repo";

/**
 * How long after the first held message of a document the relay saves it: the next turn of the event loop, so the
 * messages of one turn share a save. Measured (npm run bench -- relay): at 50 ms a stock automerge-repo client's paced
 * change took 58 ms p50 to reach a teammate (7.9 before acknowledgements waited for storage), at 0 ms 10 ms, for more
 * relay CPU on that path only (fixed load 60% against 51%); fast-path clients, the app's, were unchanged either way.
 */
export const RELAY_ACK_SAVE_DELAY_MS = 0;
/** How often documents whose save failed are tried again. */
export const RELAY_SAVE_RETRY_MS = 5_000;
/** Sync messages held for durability across every session, at most. */
export const RELAY_MAX_HELD_SYNC_MESSAGES = 10_000;

interface SavingSubsystem {
  saveDoc(documentId: DocumentId, doc: A.Doc<unknown>): Promise<void>;
  loadDoc(documentId: DocumentId): Promise<A.Doc<unknown> | null>;
}

interface Held {
  message: Message;
  /** Taken when held: released by a save whose own number is higher (it began later, so it covers these heads). */
  seq: number;
}

export interface DurableAcksOptions {
  repo: Repo;
  /** Sends a message to its session now (the network adapter's own send). */
  send(message: Message): void;
  /** Closes a session whose messages can no longer be held. */
  refuse(sessionId: string, reason: string): void;
  log: (line: string) => void;
  saveDelayMs?: number;
  retryMs?: number;
  maxHeld?: number;
}

export class DurableAcks {
  readonly #options: Required<Pick<DurableAcksOptions, "saveDelayMs" | "retryMs" | "maxHeld">> & DurableAcksOptions;
  /** Per document: the heads last stored (or loaded), and the number of the save that stored them. */
  readonly #stored = new Map<string, { heads: string[]; seq: number }>();
  readonly #held = new Map<string, Held[]>();
  readonly #saveSoon = new Map<string, NodeJS.Timeout>();
  /** Documents whose last save failed, with why. */
  readonly #failing = new Map<string, string>();
  #heldCount = 0;
  #seq = 0;
  #retry: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: DurableAcksOptions) {
    this.#options = {
      saveDelayMs: RELAY_ACK_SAVE_DELAY_MS,
      retryMs: RELAY_SAVE_RETRY_MS,
      maxHeld: RELAY_MAX_HELD_SYNC_MESSAGES,
      ...options,
    };
    const subsystem = options.repo.storageSubsystem as unknown as SavingSubsystem | undefined;
    if (!subsystem) return;
    const save = subsystem.saveDoc.bind(subsystem);
    const load = subsystem.loadDoc.bind(subsystem);
    subsystem.saveDoc = async (documentId, doc) => {
      const seq = ++this.#seq;
      let heads: string[];
      try {
        heads = A.getHeads(doc);
        await save(documentId, doc);
      } catch (error) {
        this.#saveFailed(documentId, error);
        return;
      }
      this.#saved(documentId, heads, seq);
    };
    subsystem.loadDoc = async (documentId) => {
      const seq = ++this.#seq;
      const doc = await load(documentId);
      if (doc) this.#saved(documentId, A.getHeads(doc), seq);
      return doc;
    };
  }

  /** The adapter's send for the Repo: sync messages wait until the heads they show are stored. */
  send(message: Message): void {
    const documentId = message.type === "sync" ? message.documentId : undefined;
    if (!documentId) return this.#options.send(message);
    const queue = this.#held.get(documentId);
    if (!queue && this.#showsOnlyStored(documentId, message)) return this.#options.send(message);
    if (this.#heldCount >= this.#options.maxHeld) {
      this.#options.refuse(message.targetId, "the relay cannot store changes right now; try again later");
      return;
    }
    this.#heldCount++;
    if (queue) queue.push({ message, seq: ++this.#seq });
    else this.#held.set(documentId, [{ message, seq: ++this.#seq }]);
    if (!this.#saveSoon.has(documentId) && !this.#failing.has(documentId)) this.#saveLater(documentId);
  }

  /**
   * Whether the heads this message shows are stored. Read from the message itself: the Repo answers a peer's changes
   * from the document it just applied them to, before its handle shows the new heads.
   */
  #showsOnlyStored(documentId: string, message: Message): boolean {
    const data = (message as { data?: Uint8Array }).data;
    if (!data) return true;
    let heads: string[];
    try {
      heads = A.decodeSyncMessage(data).heads;
    } catch {
      return true;
    }
    return heads.length === 0 || sameSet(heads, this.#stored.get(documentId)?.heads);
  }

  /** Whether everything of the document is stored and nothing waits (eviction may unload it only then). */
  settled(documentId: string): boolean {
    return !this.#failing.has(documentId) && !this.#held.has(documentId);
  }

  /** The document left memory: what was known about it goes too (it loads again with its stored heads). */
  forget(documentId: string): void {
    if (this.#held.has(documentId)) return;
    this.#stored.delete(documentId);
  }

  /** Documents whose last save failed. */
  failing(): string[] {
    return [...this.#failing.keys()];
  }

  /** Held messages of a session that left are dropped (its socket is gone; a new session starts afresh). */
  sessionLeft(sessionId: string): void {
    for (const [documentId, queue] of this.#held) {
      const kept = queue.filter((held) => held.message.targetId !== sessionId);
      this.#heldCount -= queue.length - kept.length;
      if (kept.length === 0) this.#held.delete(documentId);
      else this.#held.set(documentId, kept);
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retry) clearInterval(this.#retry);
    this.#retry = null;
    for (const timer of this.#saveSoon.values()) clearTimeout(timer);
    this.#saveSoon.clear();
  }

  #saveNow(documentId: string): void {
    if (this.#stopped) return;
    const handle = this.#options.repo.handles[documentId as DocumentId];
    // Unloaded meanwhile: it was stored before it left (eviction waits for settled()), so what waited may go.
    if (!handle) return this.#release(documentId, Infinity);
    if (handle.isReady()) {
      void this.#options.repo.flush([documentId as DocumentId]);
      return;
    }
    // Still becoming ready (created from a peer's first message): look again shortly.
    this.#saveLater(documentId);
  }

  /** Saves the document saveDelayMs from now (one timer per document). */
  #saveLater(documentId: string): void {
    const timer = setTimeout(() => {
      this.#saveSoon.delete(documentId);
      this.#saveNow(documentId);
    }, this.#options.saveDelayMs);
    timer.unref();
    this.#saveSoon.set(documentId, timer);
  }

  #saved(documentId: string, heads: string[], seq: number): void {
    const previous = this.#stored.get(documentId);
    if (!previous || previous.seq < seq) this.#stored.set(documentId, { heads, seq });
    if (this.#failing.delete(documentId)) {
      this.#options.log(`stored document ${documentId} after its save had failed; its changes are acknowledged now`);
      if (this.#failing.size === 0 && this.#retry) {
        clearInterval(this.#retry);
        this.#retry = null;
        this.#options.log("storage works again: every document is stored");
      }
    }
    this.#release(documentId, seq);
  }

  /** Sends, in order, the document's held messages that a save numbered `seq` covers. */
  #release(documentId: string, seq: number): void {
    const queue = this.#held.get(documentId);
    if (!queue) return;
    let covered = 0;
    while (covered < queue.length && queue[covered]!.seq < seq) covered++;
    const ready = queue.splice(0, covered);
    this.#heldCount -= ready.length;
    if (queue.length === 0) this.#held.delete(documentId);
    for (const held of ready) this.#options.send(held.message);
  }

  #saveFailed(documentId: string, error: unknown): void {
    const why = describeStorageError(error);
    if (!this.#failing.has(documentId)) {
      this.#options.log(
        `could not store document ${documentId} (${why}); its latest changes stay in memory and are not acknowledged to clients; retrying every ${this.#options.retryMs / 1000} s`,
      );
    }
    this.#failing.set(documentId, why);
    if (this.#retry || this.#stopped) return;
    this.#retry = setInterval(() => {
      for (const failed of [...this.#failing.keys()]) {
        if (this.#options.repo.handles[failed as DocumentId]?.isReady()) this.#saveNow(failed);
        else this.#failing.delete(failed);
      }
    }, this.#options.retryMs);
    this.#retry.unref();
  }
}

/** "SQLITE_FULL: database or disk is full". */
function describeStorageError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" ? `${code}: ${message}` : message;
}

function sameSet(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((head) => b.includes(head));
}
