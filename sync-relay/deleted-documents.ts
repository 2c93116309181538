/**
 * Plans deleted from the team's list, as the relay records them (deleted_documents, relay schema 4). A deleted plan is
 * refused to every member from the moment its entry leaves the team index, whoever still knows its id (the id stays
 * in the team index's history for every member, present and future); its stored chunks are removed once
 * RELAY_DELETED_DOCUMENT_GRACE_MS has passed.
 *
 * What must stay true: a recorded deletion is never lifted (the row outlives the purge); `has` answers from memory,
 * since access() asks it for every message; the purge removes chunks only of documents whose grace has passed, and
 * records it, so a restart neither purges early nor purges twice.
 */
import type Database from "better-sqlite3";

export class DeletedDocuments {
  readonly #db: Database.Database;
  readonly #ids = new Set<string>();

  constructor(db: Database.Database) {
    this.#db = db;
    for (const row of db.prepare("SELECT document_id FROM deleted_documents").all() as { document_id: string }[]) this.#ids.add(row.document_id);
  }

  has(documentId: string): boolean {
    return this.#ids.has(documentId);
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Records the deletion (the first time wins); true when it is new. Refused from then on, even if the write fails. */
  record(documentId: string, deletedAt: number): boolean {
    if (this.#ids.has(documentId)) return false;
    this.#ids.add(documentId);
    this.#db.prepare("INSERT INTO deleted_documents (document_id, deleted_at) VALUES (?, ?) ON CONFLICT(document_id) DO NOTHING").run(documentId, deletedAt);
    return true;
  }

  /** Deleted plans whose grace has passed and whose data is still stored. */
  duePurge(now: number, graceMs: number): string[] {
    const rows = this.#db
      .prepare("SELECT document_id FROM deleted_documents WHERE purged_at IS NULL AND deleted_at <= ? ORDER BY deleted_at")
      .all(now - graceMs) as { document_id: string }[];
    return rows.map((row) => row.document_id);
  }

  markPurged(documentId: string, purgedAt: number): void {
    this.#db.prepare("UPDATE deleted_documents SET purged_at = ? WHERE document_id = ?").run(purgedAt, documentId);
  }

  /** When the plan was deleted and when its data was removed (null: not yet), or null when it was never deleted. */
  describe(documentId: string): { deletedAt: number; purgedAt: number | null } | null {
    const row = this.#db.prepare("SELECT deleted_at, purged_at FROM deleted_documents WHERE document_id = ?").get(documentId) as
      | { deleted_at: number; purged_at: number | null }
      | undefined;
    return row ? { deletedAt: row.deleted_at, purgedAt: row.purged_at } : null;
  }
}
