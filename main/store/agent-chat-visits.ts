/**
 * The agent chats this device showed (local schema 11, issue #27), for the sidebar's recents: the chat view records a
 * visit when it shows a chat (`recordAgentChatVisit`), and nothing else does, so opening the Agents page, a plan or a
 * setting makes no recent. Kept per profiles scope and person, on this device only (recents are where this device
 * was, not the person's history everywhere).
 *
 * What must stay true: one row per (scope, person, agent), by the primary key; a visit is newer than every visit
 * before it on this device, whatever the clock says; at most MAX_AGENT_CHAT_VISITS rows per scope and person, the
 * least recent dropped first.
 */
import type { Database } from "better-sqlite3";
import { MAX_AGENT_CHAT_VISITS } from "../util/limits.js";

/** A scope as the visits key it: "team:<team index id>" or "device:<device id>". */
export type VisitScope = { kind: "device"; deviceId: string } | { kind: "team"; teamIndexId: string };

export function visitScopeKey(scope: VisitScope): string {
  return scope.kind === "team" ? `team:${scope.teamIndexId}` : `device:${scope.deviceId}`;
}

export class AgentChatVisits {
  constructor(private readonly db: Database) {}

  /** Records a visit of the person's chat with `agentId`: the most recent from now on. */
  record(scope: VisitScope, person: string, agentId: string, now: number): void {
    const key = visitScopeKey(scope);
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO agent_chat_visits (scope, person, agent_id, seq, visited_at)
           VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM agent_chat_visits), ?)
           ON CONFLICT (scope, person, agent_id) DO UPDATE SET seq = excluded.seq, visited_at = excluded.visited_at`,
        )
        .run(key, person, agentId, now);
      this.db
        .prepare(
          `DELETE FROM agent_chat_visits WHERE scope = ? AND person = ? AND agent_id NOT IN
             (SELECT agent_id FROM agent_chat_visits WHERE scope = ? AND person = ? ORDER BY seq DESC LIMIT ?)`,
        )
        .run(key, person, key, person, MAX_AGENT_CHAT_VISITS);
    })();
  }

  /** The agents whose chats the person visited here, most recent first. */
  recent(scope: VisitScope, person: string): string[] {
    const rows = this.db
      .prepare("SELECT agent_id FROM agent_chat_visits WHERE scope = ? AND person = ? ORDER BY seq DESC LIMIT ?")
      .all(visitScopeKey(scope), person, MAX_AGENT_CHAT_VISITS) as { agent_id: string }[];
    return rows.map((row) => row.agent_id);
  }
}
