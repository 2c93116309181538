/**
 * The window outbox's storage: edits a window made to a document that the core has not confirmed on disk, kept in
 * the page origin's storage (localStorage) so they outlive the window, a core restart and a refused link. One entry
 * per (document, window): two windows editing the same document while the core is down never overwrite each other.
 * What must stay true:
 * - An entry holds Automerge change bytes (or the whole saved document), base64; applying it twice is harmless.
 * - One entry is at most OUTBOX_MAX_DOCUMENT_CHARS and all of them at most OUTBOX_MAX_TOTAL_CHARS characters of stored
 *   JSON; a write past either bound (or past the browser's quota) is refused with a typed error and leaves the entry
 *   already stored as it was, so the caller can say what is and is not kept. Nothing is evicted to make room.
 * - An entry is removed only by its writer (its own newer state) or, compare-and-remove, by whoever saw the core
 *   confirm exactly that stored value.
 * - Unreadable values under the outbox's prefix are dropped (they can never be replayed), never thrown.
 */
import { ChopinError } from "../../../shared/errors.js";
import { OUTBOX_MAX_DOCUMENT_CHARS, OUTBOX_MAX_TOTAL_CHARS } from "../limits.js";

export const OUTBOX_KEY_PREFIX = "chopin.outbox.v1:";

/** The part of the Web Storage API the outbox uses (localStorage in a page; a Map-backed double in tests). */
export type OutboxStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

export interface OutboxEntry {
  documentId: string;
  /** The window that wrote it (random per page load). */
  windowId: string;
  /** The document's title when written: what the window names when it speaks of these edits. */
  title: string;
  /** Hex change hashes: the document's heads once these edits are applied; the core confirms exactly these. */
  heads: string[];
  /** Either the changes since the last confirmed heads (base64 each) ... */
  changes?: string[];
  /** ... or the whole saved document (base64), when that is smaller than the changes ... */
  document?: string;
  /**
   * ... or text typed into a document that was still opening (the window had not loaded it yet, so there are no
   * Automerge changes): the editor's edits (a CodeMirror ChangeSet, JSON) against the text it started from. `heads`
   * is empty: the edits are rebased over whatever the document says when they are replayed.
   */
  typed?: { baseText: string; changes: unknown[] };
  /** Epoch ms of the write. */
  writtenAt: number;
}

/** An entry as stored: its key and raw value, so it can be removed only if nobody rewrote it meanwhile. */
export interface StoredEntry {
  key: string;
  raw: string;
  entry: OutboxEntry;
}

export interface OutboxBounds {
  maxDocumentChars: number;
  maxTotalChars: number;
}

export function outboxKey(documentId: string, windowId: string): string {
  return `${OUTBOX_KEY_PREFIX}${documentId}:${windowId}`;
}

export class OutboxStore {
  readonly #storage: OutboxStorage;
  readonly #bounds: OutboxBounds;

  constructor(
    storage: OutboxStorage,
    bounds: OutboxBounds = { maxDocumentChars: OUTBOX_MAX_DOCUMENT_CHARS, maxTotalChars: OUTBOX_MAX_TOTAL_CHARS },
  ) {
    this.#storage = storage;
    this.#bounds = bounds;
  }

  /**
   * Stores (or replaces) the window's entry for the document. Throws 'too-large' past the per-document bound and
   * 'storage-failure' past the total bound or the browser's quota; the stored state is then unchanged.
   */
  put(entry: OutboxEntry): void {
    const key = outboxKey(entry.documentId, entry.windowId);
    const raw = JSON.stringify(entry);
    if (raw.length > this.#bounds.maxDocumentChars) {
      throw new ChopinError(
        "too-large",
        `The unsaved edits to “${entry.title}” are larger than this browser can keep for them (${formatChars(this.#bounds.maxDocumentChars)}).`,
        { chars: raw.length, limit: this.#bounds.maxDocumentChars },
      );
    }
    const others = this.#keys()
      .filter((k) => k !== key)
      .reduce((sum, k) => sum + (this.#storage.getItem(k)?.length ?? 0), 0);
    if (others + raw.length > this.#bounds.maxTotalChars) {
      throw new ChopinError(
        "storage-failure",
        `This browser's room for unsaved edits (${formatChars(this.#bounds.maxTotalChars)}) is full with edits to other documents.`,
        { chars: others + raw.length, limit: this.#bounds.maxTotalChars },
      );
    }
    try {
      this.#storage.setItem(key, raw);
    } catch {
      // QuotaExceededError (or storage switched off): setItem leaves the old value in place.
      throw new ChopinError("storage-failure", "This browser refused to store more unsaved edits (its storage is full).");
    }
  }

  /** Every readable entry, oldest write first. Unreadable ones are removed on the way. */
  list(): StoredEntry[] {
    const found: StoredEntry[] = [];
    for (const key of this.#keys()) {
      const raw = this.#storage.getItem(key);
      const entry = raw === null ? null : parseEntry(raw);
      if (!entry || key !== outboxKey(entry.documentId, entry.windowId)) {
        this.#storage.removeItem(key);
        continue;
      }
      found.push({ key, raw: raw!, entry });
    }
    return found.sort((a, b) => a.entry.writtenAt - b.entry.writtenAt);
  }

  /** The window's entry for the document, if any. */
  get(documentId: string, windowId: string): StoredEntry | null {
    const key = outboxKey(documentId, windowId);
    const raw = this.#storage.getItem(key);
    const entry = raw === null ? null : parseEntry(raw);
    return entry && raw !== null ? { key, raw, entry } : null;
  }

  remove(documentId: string, windowId: string): void {
    this.#storage.removeItem(outboxKey(documentId, windowId));
  }

  /** Removes the entry only if it still holds exactly what `stored` read; true when it is gone now. */
  removeIfUnchanged(stored: StoredEntry): boolean {
    const now = this.#storage.getItem(stored.key);
    if (now === null) return true;
    if (now !== stored.raw) return false;
    this.#storage.removeItem(stored.key);
    return true;
  }

  #keys(): string[] {
    const keys: string[] = [];
    for (let i = 0; i < this.#storage.length; i++) {
      const key = this.#storage.key(i);
      if (key?.startsWith(OUTBOX_KEY_PREFIX)) keys.push(key);
    }
    return keys;
  }
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

function parseEntry(raw: string): OutboxEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const e = value as Record<string, unknown>;
  if (typeof e.documentId !== "string" || typeof e.windowId !== "string" || typeof e.title !== "string") return null;
  if (!isStrings(e.heads) || typeof e.writtenAt !== "number") return null;
  const hasChanges = isStrings(e.changes);
  const hasDocument = typeof e.document === "string";
  const typed = e.typed as { baseText?: unknown; changes?: unknown } | undefined;
  const hasTyped = !!typed && typeof typed === "object" && typeof typed.baseText === "string" && Array.isArray(typed.changes);
  // Exactly one of the three forms.
  if (Number(hasChanges) + Number(hasDocument) + Number(hasTyped) !== 1) return null;
  const form = hasChanges
    ? { changes: e.changes as string[] }
    : hasDocument
      ? { document: e.document as string }
      : { typed: { baseText: typed!.baseText as string, changes: typed!.changes as unknown[] } };
  return { documentId: e.documentId, windowId: e.windowId, title: e.title, heads: e.heads, ...form, writtenAt: e.writtenAt };
}

function formatChars(chars: number): string {
  return chars >= 1024 * 1024 ? `${Math.round((chars / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(chars / 1024)} KB`;
}
