/**
 * A document whose stored bytes are not Automerge data (a damaged disk, a bad copy of relay.sqlite). automerge-repo's
 * load throws on them ("unable to parse chunk"), and the Repo then keeps that document's handle "loading" for good:
 * every later message about it waited forever, a fresh client asking for it never got an answer, and a member holding
 * a good copy could never give it back to the relay. This wraps the Repo's StorageSubsystem.loadDoc so that when a
 * load fails, each stored chunk of the document is parsed on its own, the unreadable ones are copied to
 * quarantined_chunks (relay-db.ts) and only then removed from the chunk table, and the document loads again from what
 * remains: the good chunks, or nothing, in which case the relay asks its peers (a member holding the document restores
 * it; a fresh client gets "unavailable").
 *
 * What must stay true:
 * - Only bytes that fail to parse on their own are moved, and they are copied before they are removed (a crash in
 *   between leaves them in both places; copying again is a no-op). A read failure of the database itself (a SQLite
 *   error) is not corruption of a document: it is passed on unchanged and nothing is moved.
 * - The load path of a readable document is unchanged: the per-chunk check runs only after a load failed.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId, Repo, StorageAdapterInterface } from "@automerge/automerge-repo";
import type Database from "better-sqlite3";

/** The chunk kinds automerge-repo's StorageSubsystem stores a document's data under. */
const DOCUMENT_CHUNK_KINDS = ["snapshot", "incremental"] as const;

interface LoadingSubsystem {
  loadDoc(documentId: DocumentId): Promise<unknown>;
}

export interface CorruptChunkOptions {
  repo: Repo;
  db: Database.Database;
  /** The relay's chunk storage itself (not the ClosableStorage wrapper). */
  storage: StorageAdapterInterface;
  log: (line: string) => void;
}

/** Installs the fallback on repo.storageSubsystem; returns how many chunks were quarantined so far (tests, health). */
export function quarantineUnreadableChunks({ repo, db, storage, log }: CorruptChunkOptions): { quarantined(): number } {
  const subsystem = repo.storageSubsystem as unknown as LoadingSubsystem | undefined;
  let quarantined = 0;
  if (!subsystem) return { quarantined: () => quarantined };
  const load = subsystem.loadDoc.bind(subsystem);
  const insert = db.prepare(
    "INSERT INTO quarantined_chunks (key, data, reason, quarantined_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
  );
  subsystem.loadDoc = async (documentId) => {
    try {
      return await load(documentId);
    } catch (error) {
      if (isDatabaseError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      const chunks = (await Promise.all(DOCUMENT_CHUNK_KINDS.map((kind) => storage.loadRange([documentId, kind])))).flat();
      const unreadable = chunks.filter((chunk) => chunk.data !== undefined && !parses(chunk.data));
      if (unreadable.length === 0) throw error;
      db.transaction(() => {
        for (const chunk of unreadable) insert.run(chunk.key.join("/"), Buffer.from(chunk.data!), reason, Date.now());
      })();
      for (const chunk of unreadable) await storage.remove(chunk.key);
      quarantined += unreadable.length;
      log(
        `document ${documentId}: ${unreadable.length} of ${chunks.length} stored chunk(s) are not Automerge data (${reason}); ` +
          "moved them to the quarantined_chunks table of relay.sqlite and loading the rest: a member who has the document restores it on their next sync",
      );
      return load(documentId);
    }
  };
  return { quarantined: () => quarantined };
}

/** Whether these stored bytes are Automerge data by themselves (a snapshot, or changes whose deps may be elsewhere). */
function parses(data: Uint8Array): boolean {
  try {
    A.free(A.loadIncremental(A.init(), data));
    return true;
  } catch {
    return false;
  }
}

/** better-sqlite3 errors carry a SQLITE_* code; Automerge's parse errors carry none. */
function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_");
}
