/**
 * This device's agent chat visits (issue #27): most recent first by the order of visits here (not the clock), one row
 * per chat by the database's constraint, kept apart per scope and person, MAX_AGENT_CHAT_VISITS per scope and person
 * at its edge, and kept across a restart.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_SIDEBAR_RECENTS, MAX_AGENT_STARS } from "../../shared/limits.js";
import { tempDir } from "../sync/test-helpers.js";
import { MAX_AGENT_CHAT_VISITS } from "../util/limits.js";
import { AgentChatVisits, type VisitScope } from "./agent-chat-visits.js";
import { openLocalDb } from "./local-db.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function open(path?: string) {
  const dir = path ? null : tempDir("chopin-agent-chat-visits-");
  const db = openLocalDb(path ?? dir!.path);
  cleanups.push(() => db.close());
  if (dir) cleanups.push(() => dir.remove());
  return { visits: new AgentChatVisits(db), db, path: path ?? dir!.path };
}

const team: VisitScope = { kind: "team", teamIndexId: "team-1" };
const agent = (n: number) => n.toString(16).padStart(32, "0");

describe("this device's agent chat visits", () => {
  it("list the most recent visit first, by the order of visits whatever the clock says, one row per chat", () => {
    const { visits, db } = open();
    visits.record(team, "github:alice", agent(1), 5_000);
    visits.record(team, "github:alice", agent(2), 1_000);
    visits.record(team, "github:alice", agent(3), 3_000);
    visits.record(team, "github:alice", agent(1), 2_000);
    expect(visits.recent(team, "github:alice")).toEqual([agent(1), agent(3), agent(2)]);
    // The constraint, not the code, keeps one row per chat.
    expect(() => db.prepare("INSERT INTO agent_chat_visits (scope, person, agent_id, seq, visited_at) VALUES ('team:team-1', 'github:alice', ?, 99, 0)").run(agent(1))).toThrow(/UNIQUE/);
  });

  it("keep each scope's and person's visits apart", () => {
    const { visits } = open();
    visits.record(team, "github:alice", agent(1), 1);
    visits.record(team, "github:bob", agent(2), 2);
    visits.record({ kind: "device", deviceId: "team-1" }, "github:alice", agent(3), 3);
    expect(visits.recent(team, "github:alice")).toEqual([agent(1)]);
    expect(visits.recent(team, "github:bob")).toEqual([agent(2)]);
    expect(visits.recent({ kind: "device", deviceId: "team-1" }, "github:alice")).toEqual([agent(3)]);
  });

  it(`keep the ${MAX_AGENT_CHAT_VISITS} most recent per scope and person, dropping the least recent past it, and keep them across a restart`, () => {
    expect(MAX_AGENT_CHAT_VISITS).toBeGreaterThan(MAX_AGENT_STARS + AGENT_SIDEBAR_RECENTS);
    const { visits, db, path } = open();
    for (let i = 1; i <= MAX_AGENT_CHAT_VISITS; i++) visits.record(team, "github:alice", agent(i), i);
    visits.record(team, "github:bob", agent(1), 0);
    expect(visits.recent(team, "github:alice")).toHaveLength(MAX_AGENT_CHAT_VISITS);
    expect(visits.recent(team, "github:alice").at(-1)).toBe(agent(1));
    visits.record(team, "github:alice", agent(MAX_AGENT_CHAT_VISITS + 1), 99);
    const kept = visits.recent(team, "github:alice");
    expect(kept).toHaveLength(MAX_AGENT_CHAT_VISITS);
    expect(kept[0]).toBe(agent(MAX_AGENT_CHAT_VISITS + 1));
    expect(kept).not.toContain(agent(1));
    const rows = db.prepare("SELECT COUNT(*) AS n FROM agent_chat_visits WHERE person = 'github:alice'").get() as { n: number };
    expect(rows.n).toBe(MAX_AGENT_CHAT_VISITS);
    // Another person's visits are not dropped for Alice's.
    expect(visits.recent(team, "github:bob")).toEqual([agent(1)]);

    db.close();
    expect(open(path).visits.recent(team, "github:alice")).toEqual(kept);
  });
});
