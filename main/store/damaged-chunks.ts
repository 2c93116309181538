/**
 * Sets aside the stored chunks of a plan that cannot be read, so the person can remove it from this device without
 * destroying what might still be recovered from its bytes (the relay quarantines unreadable chunks the same way,
 * sync-relay/corrupt-chunks.ts). What must stay true: the bytes are copied into damaged_chunks and removed from the
 * Automerge chunk table in one transaction (SqliteStorageAdapter.moveRange): never lost, never in neither place.
 */
import type { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import type { LocalDb } from "./local-db.js";

/** Moves every chunk stored under the document's id (its data and sync states); returns how many moved. */
export function setAsideChunks(db: LocalDb, chunks: SqliteStorageAdapter, documentId: string, now: number): number {
  const insert = db.prepare("INSERT INTO damaged_chunks (document_id, key, data, set_aside_at) VALUES (?, ?, ?, ?)");
  return chunks.moveRange([documentId], (moved) => {
    for (const chunk of moved) insert.run(documentId, chunk.key.join("/"), Buffer.from(chunk.data), now);
  });
}
