/**
 * The MCP server is stateless per request (a fresh protocol server each time: no per-session stream maps to leak),
 * yet provenance wants the client's name from `initialize`. So initialize mints an id, returned as mcp-session-id,
 * that maps to the client name; clients echo it on later requests. The map is bounded (MAX_MCP_SESSIONS), oldest
 * forgotten first; a forgotten or absent id reads as "unknown".
 */
import { randomUUID } from "node:crypto";
import { MAX_MCP_CLIENT_NAME_CHARS, MAX_MCP_SESSIONS } from "../../shared/limits.js";

export const UNKNOWN_CLIENT = "unknown";

export class ClientSessions {
  readonly #names = new Map<string, string>();
  readonly #cap: number;

  constructor(cap = MAX_MCP_SESSIONS) {
    this.#cap = cap;
  }

  get size(): number {
    return this.#names.size;
  }

  open(clientName: unknown): string {
    const id = randomUUID();
    const name =
      typeof clientName === "string" && clientName.trim() ? clientName.trim().slice(0, MAX_MCP_CLIENT_NAME_CHARS) : UNKNOWN_CLIENT;
    this.#names.set(id, name);
    while (this.#names.size > this.#cap) this.#names.delete(this.#names.keys().next().value as string);
    return id;
  }

  nameOf(sessionId: string | undefined): string {
    return (sessionId && this.#names.get(sessionId)) || UNKNOWN_CLIENT;
  }

  close(sessionId: string | undefined): void {
    if (sessionId) this.#names.delete(sessionId);
  }
}
