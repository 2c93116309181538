/**
 * Which relay-token users speak for which GitHub login (issue #27: the relay's guard on chats). A person's apps link
 * to the relay with their relay token whenever they have one (main/sync/relay-link.ts relayCredential), so their
 * writes into their own "github:<login>" chat arrive as a handle ("alice"), not as "gh:alice". The app proves both
 * identities in one call (registering a GitHub chat with the GitHub sign-in and, in a second header, the relay
 * token: agent-chat-routes.ts), and the link is recorded here; the guard (chat-write-guard.ts) then lets exactly the
 * linked handles write into that login's chats.
 *
 * What must stay true:
 *  - a token user speaks for at most one GitHub login: PRIMARY KEY (token_user) decides, the code only reads back, so
 *    two links at once (two connections, two processes) cannot give one handle two logins; the same link again
 *    changes nothing (idempotent); another login for a linked handle is 'idempotency-conflict';
 *  - the table holds at most RELAY_MAX_TOKEN_LINKS rows: the next new one is 'too-large', a held one still answers;
 *  - a link is never changed or removed here, and no token is stored: only the handle the relay verified it as
 *    (a handle's re-issued token is the same person's, so the link stays with the handle).
 */
import type Database from "better-sqlite3";
import { ChopinError } from "../shared/errors.js";
import { RELAY_MAX_TOKEN_LINKS } from "./limits.js";

/** Created by the relay's schema step 7 (relay-db.ts). */
export const RELAY_TOKEN_LINK_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS relay_token_links (
    token_user  TEXT PRIMARY KEY NOT NULL,
    github_user TEXT NOT NULL,
    linked_at   INTEGER NOT NULL
  ) STRICT;
`;

/** A relay-token user ("alice") speaking for a GitHub identity ("gh:alice"). */
export interface TokenLink {
  tokenUser: string;
  githubUser: string;
}

export class RelayTokenLinks {
  readonly #db: Database.Database;
  readonly #max: number;
  readonly #now: () => number;

  constructor(db: Database.Database, options: { max?: number; now?: () => number } = {}) {
    this.#db = db;
    this.#max = options.max ?? RELAY_MAX_TOKEN_LINKS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Records that `tokenUser` speaks for `githubUser`; `created` false when it already did. One IMMEDIATE transaction:
   * the count and the insert see the same table as another process's link.
   */
  link(tokenUser: string, githubUser: string): { link: TokenLink; created: boolean } {
    return this.#db
      .transaction(() => {
        const held = this.linkOf(tokenUser);
        if (held === null) {
          const count = (this.#db.prepare("SELECT COUNT(*) AS n FROM relay_token_links").get() as { n: number }).n;
          if (count >= this.#max) {
            throw new ChopinError("too-large", `This relay already links ${this.#max} relay tokens to GitHub sign-ins, the most it keeps, so this one was not linked.`, { limit: this.#max });
          }
        }
        const inserted = this.#db
          .prepare("INSERT INTO relay_token_links (token_user, github_user, linked_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
          .run(tokenUser, githubUser, this.#now());
        const now = this.linkOf(tokenUser);
        if (now === githubUser) return { link: { tokenUser, githubUser }, created: inserted.changes === 1 };
        throw new ChopinError(
          "idempotency-conflict",
          `This relay token already speaks for another GitHub sign-in (${now ?? "unknown"}), and one relay token speaks for one; it was not linked to ${githubUser}.`,
          { linkedTo: now },
        );
      })
      .immediate();
  }

  /** The GitHub identity `tokenUser` speaks for, or null. */
  linkOf(tokenUser: string): string | null {
    const row = this.#db.prepare("SELECT github_user FROM relay_token_links WHERE token_user = ?").get(tokenUser) as { github_user: string } | undefined;
    return row?.github_user ?? null;
  }

  /** Every link (at most RELAY_MAX_TOKEN_LINKS), oldest first: what the guard loads at start. */
  list(): TokenLink[] {
    const rows = this.#db.prepare("SELECT token_user, github_user FROM relay_token_links ORDER BY linked_at, rowid LIMIT ?").all(this.#max) as {
      token_user: string;
      github_user: string;
    }[];
    return rows.map((r) => ({ tokenUser: r.token_user, githubUser: r.github_user }));
  }
}
