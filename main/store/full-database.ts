/**
 * Test support (imported only by *.test.ts): makes chopin.db refuse writes the way a full disk does, through SQLite's
 * own full-database path rather than a mock. `fillDatabase` caps max_page_count at the file's current size, so a
 * write that needs a new page fails with SQLITE_FULL ("database or disk is full", what better-sqlite3 throws on a full
 * disk), and first packs the named tables with inert rows, so that even a small new row needs a page. As SQLite's cap
 * allows, a write that fits in place (a delete, a value no longer than before) still succeeds; `readOnlyDatabase`
 * refuses those too (SQLITE_READONLY, as a file or folder that became read-only does).
 * The cap and query_only hold for this connection only: the code under test must use the same Database object.
 */
import type { Database } from "better-sqlite3";

/** Every packing row's key starts so, after any real key, and free() removes them by it. */
const FILLER = "~test-filler.";

/** A row of `size` bytes that no reader of the table takes for a real one. */
const PACKING: Record<string, { insert: string; key: string }> = {
  settings: { insert: "INSERT INTO settings (key, value) VALUES (@key, substr(hex(zeroblob(@size)), 1, @size))", key: "key" },
  relay_shares: {
    insert:
      "INSERT INTO relay_shares (document_id, relay_url, origin, shared_at) VALUES (@key || substr(hex(zeroblob(@size)), 1, @size), '~test-filler', 'here', 0)",
    key: "document_id",
  },
  team_removals: {
    insert: "INSERT INTO team_removals (document_id, removed_at) VALUES (@key || substr(hex(zeroblob(@size)), 1, @size), 0)",
    key: "document_id",
  },
  damaged_chunks: {
    insert: "INSERT INTO damaged_chunks (document_id, key, data, set_aside_at) VALUES (@key, '', zeroblob(@size), 0)",
    key: "document_id",
  },
  document_snapshots: {
    insert:
      "INSERT INTO document_snapshots (document_id, heads, title, text, saved_at, folded) VALUES (@key, '[]', '', substr(hex(zeroblob(@size)), 1, @size), 0, '')",
    key: "document_id",
  },
};

export type PackedTable = keyof typeof PACKING;

export interface FullDatabase {
  /** The disk has room again: lifts the cap and removes the packing rows. */
  free(): void;
}

export function fillDatabase(db: Database, tables: readonly PackedTable[]): FullDatabase {
  const limit = db.pragma("max_page_count", { simple: true }) as number;
  db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);
  let n = 0;
  for (const table of tables) {
    const insert = db.prepare(PACKING[table].insert);
    // Halving row sizes fill the table's last pages to the byte: then no new row fits without a new page.
    for (let size = 2048; size >= 1; ) {
      try {
        insert.run({ key: `${FILLER}${n++}.`, size });
      } catch (error) {
        if ((error as { code?: unknown }).code !== "SQLITE_FULL") throw error;
        size = Math.floor(size / 2);
      }
    }
  }
  return {
    free() {
      db.pragma(`max_page_count = ${limit}`);
      for (const table of tables) db.prepare(`DELETE FROM ${table} WHERE ${PACKING[table].key} LIKE '${FILLER}%'`).run();
    },
  };
}

/** Refuses every write, deletes included, until `writable()`. */
export function readOnlyDatabase(db: Database): { writable(): void } {
  db.pragma("query_only = ON");
  return { writable: () => void db.pragma("query_only = OFF") };
}
