/**
 * The MCP server is stateless per request (a fresh protocol server each time: no per-session stream maps to leak),
 * yet provenance wants the client's name from `initialize`. So initialize mints an id, returned as mcp-session-id,
 * that maps to the client name; clients echo it on later requests. The map is bounded (MAX_MCP_SESSIONS), oldest
 * forgotten first, and kept in the local database, so an agent connected across an app restart keeps its name.
 * What must stay true: an id this installation never issued (or has forgotten) reads as unknown (null), so the
 * server can answer 404 and the client opens a new session, as the protocol asks, instead of writing as "unknown";
 * a request with no id at all is a client that never initialized and reads as UNKNOWN_CLIENT. A refused write (a
 * full disk) keeps the session for this launch only.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import { MAX_MCP_CLIENT_NAME_CHARS } from "../../shared/limits.js";
import { MAX_MCP_SESSIONS } from "../util/limits.js";
import { clientNameOf } from "./client-name.js";

export const UNKNOWN_CLIENT = "unknown";

export class ClientSessions {
  readonly #names = new Map<string, string>();
  readonly #db: Database | null;
  readonly #cap: number;
  readonly #now: () => number;

  /** `db`: where sessions outlive the process (null: this process only, for tests of the bounds). */
  constructor(db: Database | null, { cap = MAX_MCP_SESSIONS, now = Date.now }: { cap?: number; now?: () => number } = {}) {
    this.#db = db;
    this.#cap = cap;
    this.#now = now;
    if (!db) return;
    const rows = db
      .prepare("SELECT session_id, client_name FROM mcp_sessions ORDER BY opened_at DESC, rowid DESC LIMIT ?")
      .all(cap) as { session_id: string; client_name: string }[];
    // Oldest first, as open() adds them, so the oldest is forgotten first.
    for (const row of rows.reverse()) this.#names.set(row.session_id, row.client_name);
  }

  get size(): number {
    return this.#names.size;
  }

  open(clientName: unknown): string {
    const id = randomUUID();
    const name = clientNameOf(clientName, MAX_MCP_CLIENT_NAME_CHARS) ?? UNKNOWN_CLIENT;
    this.#names.set(id, name);
    const forgotten: string[] = [];
    while (this.#names.size > this.#cap) {
      const oldest = this.#names.keys().next().value as string;
      this.#names.delete(oldest);
      forgotten.push(oldest);
    }
    this.#write((db) => {
      db.prepare("INSERT INTO mcp_sessions (session_id, client_name, opened_at) VALUES (?, ?, ?)").run(id, name, this.#now());
      const drop = db.prepare("DELETE FROM mcp_sessions WHERE session_id = ?");
      for (const old of forgotten) drop.run(old);
    });
    return id;
  }

  /** The client's name; UNKNOWN_CLIENT without an id; null for an id not (or no longer) known. */
  nameOf(sessionId: string | undefined): string | null {
    if (sessionId === undefined) return UNKNOWN_CLIENT;
    return this.#names.get(sessionId) ?? null;
  }

  close(sessionId: string | undefined): void {
    if (sessionId === undefined || !this.#names.delete(sessionId)) return;
    this.#write((db) => db.prepare("DELETE FROM mcp_sessions WHERE session_id = ?").run(sessionId));
  }

  #write(work: (db: Database) => void): void {
    const db = this.#db;
    if (!db) return;
    try {
      db.transaction(() => work(db))();
    } catch {
      // Best-effort: the session still works for this launch; after a restart its client is asked to initialize again.
    }
  }
}
