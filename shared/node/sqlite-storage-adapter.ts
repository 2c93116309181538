/**
 * automerge-repo storage over better-sqlite3, so the app core and the relay keep Automerge chunks in the same SQLite
 * file as the rest of their state, and never hold saved chunks in memory (unlike NodeFSStorageAdapter, gotcha 6).
 *
 * What must stay true:
 * - By default a save has reached the disk when its promise resolves: WAL with synchronous=FULL fsyncs the WAL on every
 *   commit (NORMAL+WAL can lose the last commits on power loss; the app's "saved" receipt must not lie, so FULL).
 *   durability "process-crash" (the relay) is WAL+NORMAL: a killed process loses nothing, a power cut may lose the
 *   last commits, which every client still holds and sends again on its next sync.
 * - Keys are StorageKey arrays stored as their parts joined by KEY_SEPARATOR; a part containing it is refused, so a
 *   prefix can never match a longer sibling part (["doc","sync-state"] never matches ["doc","sync-stateX"]).
 * - loadRange returns chunks in first-insertion order (the acceptance suite expects it); overwriting keeps the slot.
 */
import Database from "better-sqlite3";
import type { Chunk, StorageAdapterInterface, StorageKey } from "@automerge/automerge-repo";

/** ASCII unit separator: never appears in document ids, chunk types or hashes. */
const KEY_SEPARATOR = "\u001f";
/** The character after KEY_SEPARATOR: the exclusive upper bound of a prefix range scan. */
const KEY_SEPARATOR_NEXT = "\u0020";
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SqliteStorageAdapterOptions {
  /** Table holding the chunks; lets several components share one file. Default "automerge_chunks". */
  table?: string;
  /** "power-loss" (default): fsync every commit. "process-crash": survive a killed process without an fsync each. */
  durability?: "power-loss" | "process-crash";
}

export class SqliteStorageAdapter implements StorageAdapterInterface {
  readonly db: Database.Database;
  readonly #ownsDb: boolean;
  readonly #stmts: {
    load: Database.Statement<[string], { data: Buffer }>;
    upsert: Database.Statement<[string, Buffer]>;
    remove: Database.Statement<[string]>;
    loadRange: Database.Statement<[string, string, string], { key: string; data: Buffer }>;
    removeRange: Database.Statement<[string, string, string]>;
    loadAll: Database.Statement<[], { key: string; data: Buffer }>;
    removeAll: Database.Statement<[]>;
    firstParts: Database.Statement<[], { part: string }>;
    anyInRange: Database.Statement<[string, string, string], { one: number }>;
  };

  /** Opens (and owns) the file at `pathOrDb`, or uses an open Database its caller keeps owning. */
  constructor(pathOrDb: string | Database.Database, options: SqliteStorageAdapterOptions = {}) {
    const table = options.table ?? "automerge_chunks";
    if (!TABLE_NAME.test(table)) throw new Error(`Invalid table name for the storage adapter: ${table}`);
    this.#ownsDb = typeof pathOrDb === "string";
    this.db = typeof pathOrDb === "string" ? new Database(pathOrDb) : pathOrDb;
    // Durability is per connection; a shared connection becomes at least as durable as "saved" promises require.
    if (!this.db.memory) this.db.pragma("journal_mode = WAL");
    this.db.pragma(`synchronous = ${options.durability === "process-crash" ? "NORMAL" : "FULL"}`);
    this.db.pragma("busy_timeout = 5000");
    // INTEGER PRIMARY KEY seq keeps first-insertion order; the unique key gives point lookups and range scans.
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (seq INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, data BLOB NOT NULL)`,
    );
    const rangeWhere = `key = ? OR (key >= ? AND key < ?)`;
    this.#stmts = {
      load: this.db.prepare(`SELECT data FROM ${table} WHERE key = ?`),
      upsert: this.db.prepare(
        `INSERT INTO ${table} (key, data) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET data = excluded.data`,
      ),
      remove: this.db.prepare(`DELETE FROM ${table} WHERE key = ?`),
      loadRange: this.db.prepare(`SELECT key, data FROM ${table} WHERE ${rangeWhere} ORDER BY seq`),
      removeRange: this.db.prepare(`DELETE FROM ${table} WHERE ${rangeWhere}`),
      loadAll: this.db.prepare(`SELECT key, data FROM ${table} ORDER BY seq`),
      removeAll: this.db.prepare(`DELETE FROM ${table}`),
      anyInRange: this.db.prepare(`SELECT 1 AS one FROM ${table} WHERE ${rangeWhere} LIMIT 1`),
      firstParts: this.db.prepare(
        `SELECT DISTINCT CASE WHEN instr(key, char(31)) > 0 THEN substr(key, 1, instr(key, char(31)) - 1) ELSE key END AS part FROM ${table}`,
      ),
    };
  }

  async load(key: StorageKey): Promise<Uint8Array | undefined> {
    const row = this.#stmts.load.get(encodeKey(key));
    return row ? toUint8Array(row.data) : undefined;
  }

  async save(key: StorageKey, data: Uint8Array): Promise<void> {
    this.#stmts.upsert.run(encodeKey(key), Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }

  async remove(key: StorageKey): Promise<void> {
    this.#stmts.remove.run(encodeKey(key));
  }

  async loadRange(keyPrefix: StorageKey): Promise<Chunk[]> {
    const rows =
      keyPrefix.length === 0 ? this.#stmts.loadAll.all() : this.#stmts.loadRange.all(...rangeArgs(keyPrefix));
    return rows.map((row) => ({ key: decodeKey(row.key), data: toUint8Array(row.data) }));
  }

  async removeRange(keyPrefix: StorageKey): Promise<void> {
    if (keyPrefix.length === 0) this.#stmts.removeAll.run();
    else this.#stmts.removeRange.run(...rangeArgs(keyPrefix));
  }

  /**
   * The first part of every stored key, once each: automerge-repo keys chunks by document id first, so these are the
   * ids of every document with anything stored (plus its own single-part keys, such as "storage-adapter-id"). For
   * rebuilding what lists documents when that list itself cannot be read (main/documents/index-recovery.ts).
   */
  storedKeyHeads(): string[] {
    return this.#stmts.firstParts.all().map((row) => row.part);
  }

  /** Whether anything is stored under `keyPrefix` (e.g. [documentId]: whether that document has chunks here). */
  holds(keyPrefix: StorageKey): boolean {
    return this.#stmts.anyInRange.get(...rangeArgs(keyPrefix)) !== undefined;
  }

  /**
   * Moves everything stored under `keyPrefix` out of the chunk table: `keep` gets the chunks (in first-insertion
   * order) and must copy them elsewhere in this same database; the copy and the removal commit together, so a
   * failure or a crash leaves the chunks where they were (main/documents/damaged-removal.ts). Returns how many moved.
   */
  moveRange(keyPrefix: StorageKey, keep: (chunks: Array<{ key: StorageKey; data: Uint8Array }>) => void): number {
    if (keyPrefix.length === 0) throw new Error("moveRange needs a key prefix: it never moves the whole table");
    return this.db.transaction(() => {
      const rows = this.#stmts.loadRange.all(...rangeArgs(keyPrefix));
      keep(rows.map((row) => ({ key: decodeKey(row.key), data: toUint8Array(row.data) })));
      this.#stmts.removeRange.run(...rangeArgs(keyPrefix));
      return rows.length;
    })();
  }

  /** Closes the file if this adapter opened it; a shared Database stays open for its owner. */
  close(): void {
    if (this.#ownsDb && this.db.open) this.db.close();
  }
}

function encodeKey(key: StorageKey): string {
  for (const part of key) {
    if (part.includes(KEY_SEPARATOR)) throw new Error("A storage key part contains the reserved separator character");
  }
  return key.join(KEY_SEPARATOR);
}

function decodeKey(stored: string): StorageKey {
  return stored.split(KEY_SEPARATOR);
}

/** The exact key, or any key that continues it with further parts. */
function rangeArgs(prefix: StorageKey): [string, string, string] {
  const exact = encodeKey(prefix);
  return [exact, exact + KEY_SEPARATOR, exact + KEY_SEPARATOR_NEXT];
}

/** A fresh Uint8Array (not a Buffer view), which is what the acceptance suite compares with toStrictEqual. */
function toUint8Array(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
}
