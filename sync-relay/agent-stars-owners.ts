/**
 * Whose stars document in the team each person's is at the relay (issue #27): one row per (team, person), recorded
 * when the person's app registers its stars (POST /v1/agent-stars, agent-chat-routes.ts), under the same rule of who
 * may as a chat's registration. The guard (chat-write-guard.ts) then drops every other user's changes to that
 * document, as it does for the person's chats; a person who registered a chat is guarded already, this is for the
 * stars of a person who has not.
 *
 * What must stay true:
 *  - one registrant per (team, person): PRIMARY KEY decides, the code only reads back, so two registrations at once
 *    (two connections, two processes) cannot give a person two; the same registrant again changes nothing
 *    (idempotent); another registrant is 'forbidden' (the routes refuse it before, this holds it under a race);
 *  - a team holds at most RELAY_MAX_AGENT_STARS_OWNERS rows: the next new one is 'too-large', a held one still
 *    answers;
 *  - a row is never changed or removed here: the first registration is the person's record.
 */
import type Database from "better-sqlite3";
import { ChopinError } from "../shared/errors.js";
import { agentStarsIdOf } from "../shared/node/agent-stars-identity.js";
import { RELAY_MAX_AGENT_STARS_OWNERS } from "./limits.js";

/** Created by the relay's schema step 8 (relay-db.ts). */
export const AGENT_STARS_OWNERS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS agent_stars_owners (
    team          TEXT NOT NULL,
    person        TEXT NOT NULL,
    registered_by TEXT NOT NULL,
    registered_at INTEGER NOT NULL,
    PRIMARY KEY (team, person)
  ) STRICT;
`;

/** A person's stars registered in a team: the document and who may write it. */
export interface AgentStarsOwner {
  person: string;
  documentId: string;
  registeredBy: string;
  registeredAt: number;
}

interface Row {
  person: string;
  registered_by: string;
  registered_at: number;
}

export class AgentStarsOwners {
  readonly #db: Database.Database;
  readonly #max: number;
  readonly #now: () => number;

  constructor(db: Database.Database, options: { max?: number; now?: () => number } = {}) {
    this.#db = db;
    this.#max = options.max ?? RELAY_MAX_AGENT_STARS_OWNERS;
    this.#now = options.now ?? Date.now;
  }

  /** Records `by` as `person`'s registrant in `team`; `created` false when it already was. One IMMEDIATE transaction. */
  register(team: string, person: string, by: string): { stars: AgentStarsOwner; created: boolean } {
    return this.#db
      .transaction(() => {
        if (this.registrantOf(team, person) === null) {
          const count = (this.#db.prepare("SELECT COUNT(*) AS n FROM agent_stars_owners WHERE team = ?").get(team) as { n: number }).n;
          if (count >= this.#max) {
            throw new ChopinError("too-large", `This team already has ${this.#max} people's stars registered, the most it keeps, so these were not.`, { limit: this.#max });
          }
        }
        const inserted = this.#db
          .prepare("INSERT INTO agent_stars_owners (team, person, registered_by, registered_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
          .run(team, person, by, this.#now());
        const row = this.#row(team, person)!;
        if (row.registered_by !== by) throw new ChopinError("forbidden", "These stars were registered by another member; nothing was registered.");
        return { stars: toOwner(team, row), created: inserted.changes === 1 };
      })
      .immediate();
  }

  /** Who registered `person`'s stars in `team` (null: nobody yet). */
  registrantOf(team: string, person: string): string | null {
    return this.#row(team, person)?.registered_by ?? null;
  }

  /** Every registration of `team` (at most RELAY_MAX_AGENT_STARS_OWNERS), oldest first: what the guard loads at start. */
  list(team: string): AgentStarsOwner[] {
    const rows = this.#db
      .prepare("SELECT person, registered_by, registered_at FROM agent_stars_owners WHERE team = ? ORDER BY registered_at, rowid LIMIT ?")
      .all(team, this.#max) as Row[];
    return rows.map((row) => toOwner(team, row));
  }

  #row(team: string, person: string): Row | undefined {
    return this.#db.prepare("SELECT person, registered_by, registered_at FROM agent_stars_owners WHERE team = ? AND person = ?").get(team, person) as Row | undefined;
  }
}

function toOwner(team: string, row: Row): AgentStarsOwner {
  return {
    person: row.person,
    documentId: agentStarsIdOf({ scope: { kind: "team", teamIndexId: team }, person: row.person }),
    registeredBy: row.registered_by,
    registeredAt: row.registered_at,
  };
}
