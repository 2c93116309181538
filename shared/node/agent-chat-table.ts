/**
 * The table of agent chats (issue #27): which plan is a person's chat with an agent, one row per (team, agent,
 * person). The relay keeps it for a team's chats (relay.sqlite) and an app keeps the same table for the chats of its
 * device's own scope (chopin.db), with the same class, as both keep Planner leases (planner-leases.ts).
 *
 * What must stay true:
 *  - uniqueness is the database's: PRIMARY KEY (team, agent_id, person) and UNIQUE (team, plan_id). A registration is
 *    an INSERT that the constraint lets through or not; the code only reads back what the table holds, so two
 *    registrations at once (two connections, two processes) can never both name a plan for one (agent, person);
 *  - registering the same triple again changes nothing and is answered as the row already held (idempotent); another
 *    plan id for a taken (agent, person), or a plan id another (agent, person) holds, is 'idempotency-conflict';
 *  - a team holds at most MAX_AGENT_CHATS_PER_TEAM rows: the next new one is 'too-large', an existing one is still
 *    answered;
 *  - a row is never changed or removed here: the first registration of a chat is its record (who, when).
 */
import type Database from "better-sqlite3";
import { ChopinError } from "../errors.js";
import { MAX_AGENT_CHATS_PER_TEAM } from "../limits.js";

/** The table (created by the relay's and the app's migrations, the same columns in both). */
export const AGENT_CHAT_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS agent_chats (
    team          TEXT NOT NULL,
    agent_id      TEXT NOT NULL,
    person        TEXT NOT NULL,
    plan_id       TEXT NOT NULL,
    registered_by TEXT NOT NULL,
    registered_at INTEGER NOT NULL,
    PRIMARY KEY (team, agent_id, person),
    UNIQUE (team, plan_id)
  ) STRICT;
`;

/** A chat as the table names it. */
export interface AgentChatRecord {
  agentId: string;
  /** "github:<login>" or "device:<device id>" (shared/node/agent-chat-identity.ts). */
  person: string;
  planId: string;
  /** Who registered it: the relay's user (a handle, or "gh:<login>"); locally, this device. */
  registeredBy: string;
  /** Epoch ms by the keeper's clock. */
  registeredAt: number;
}

export type AgentChatKeyFields = Pick<AgentChatRecord, "agentId" | "person" | "planId">;

interface Row {
  agent_id: string;
  person: string;
  plan_id: string;
  registered_by: string;
  registered_at: number;
}

const toRecord = (row: Row): AgentChatRecord => ({
  agentId: row.agent_id,
  person: row.person,
  planId: row.plan_id,
  registeredBy: row.registered_by,
  registeredAt: row.registered_at,
});

export class AgentChatTable {
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #maxPerTeam: number;

  constructor(db: Database.Database, options: { now?: () => number; maxPerTeam?: number } = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#maxPerTeam = options.maxPerTeam ?? MAX_AGENT_CHATS_PER_TEAM;
  }

  /**
   * Registers `chat` in `team` as `by`; `created` false when the same triple was already there. The INSERT is the
   * decision (the constraint refuses a second plan for a pair, or a second pair for a plan); one IMMEDIATE
   * transaction, so the count and the insert see the same table as another process's registration.
   */
  register(team: string, chat: AgentChatKeyFields, by: string): { chat: AgentChatRecord; created: boolean } {
    return this.#db
      .transaction(() => {
        const count = (this.#db.prepare("SELECT COUNT(*) AS n FROM agent_chats WHERE team = ?").get(team) as { n: number }).n;
        if (count >= this.#maxPerTeam && !this.find(team, chat.agentId, chat.person)) {
          throw new ChopinError("too-large", `This team already has ${this.#maxPerTeam} agent chats, the most it keeps, so no new one was registered.`, { limit: this.#maxPerTeam });
        }
        const inserted = this.#db
          .prepare(
            `INSERT INTO agent_chats (team, agent_id, person, plan_id, registered_by, registered_at) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT DO NOTHING`,
          )
          .run(team, chat.agentId, chat.person, chat.planId, by, this.#now());
        const held = this.find(team, chat.agentId, chat.person);
        if (held && held.planId === chat.planId) return { chat: held, created: inserted.changes === 1 };
        if (held) {
          throw new ChopinError("idempotency-conflict", "This person's chat with this agent is already registered with another plan, so this one was not.", { planId: held.planId });
        }
        throw new ChopinError("idempotency-conflict", "This plan is already registered as another chat, so it was not registered again.", { planId: chat.planId });
      })
      .immediate();
  }

  find(team: string, agentId: string, person: string): AgentChatRecord | null {
    const row = this.#db
      .prepare("SELECT agent_id, person, plan_id, registered_by, registered_at FROM agent_chats WHERE team = ? AND agent_id = ? AND person = ?")
      .get(team, agentId, person) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Who first registered a chat of `person` in `team` (null: none yet): a device key belongs to its first registrant. */
  registrantOf(team: string, person: string): string | null {
    const row = this.#db.prepare("SELECT registered_by FROM agent_chats WHERE team = ? AND person = ? ORDER BY registered_at, rowid LIMIT 1").get(team, person) as
      | { registered_by: string }
      | undefined;
    return row?.registered_by ?? null;
  }

  /** Every chat of `team`, oldest registration first (at most MAX_AGENT_CHATS_PER_TEAM). */
  list(team: string): AgentChatRecord[] {
    const rows = this.#db
      .prepare("SELECT agent_id, person, plan_id, registered_by, registered_at FROM agent_chats WHERE team = ? ORDER BY registered_at, rowid")
      .all(team) as Row[];
    return rows.map(toRecord);
  }
}
