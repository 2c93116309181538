import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_AGENT_CHATS_PER_TEAM } from "../limits.js";
import { AGENT_CHAT_TABLE_SQL, AgentChatTable } from "./agent-chat-table.js";

function table(): { chats: AgentChatTable; db: Database.Database } {
  const db = new Database(":memory:");
  db.exec(AGENT_CHAT_TABLE_SQL);
  let now = 1_000;
  return { chats: new AgentChatTable(db, { now: () => now++ }), db };
}

const scout = { agentId: "scout", person: "github:alice", planId: "planA" };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the agent chats table", () => {
  it("registers a chat once: the same triple again is the same row, another plan for the pair or another pair for the plan is refused", () => {
    const { chats } = table();
    const first = chats.register("team", scout, "gh:alice");
    expect(first).toEqual({ created: true, chat: { ...scout, registeredBy: "gh:alice", registeredAt: 1_000 } });
    expect(chats.register("team", scout, "gh:alice")).toEqual({ created: false, chat: first.chat });
    expect(() => chats.register("team", { ...scout, planId: "planB" }, "gh:alice")).toThrow(expect.objectContaining({ code: "idempotency-conflict", details: { planId: "planA" } }));
    expect(() => chats.register("team", { ...scout, person: "github:bob" }, "gh:bob")).toThrow(expect.objectContaining({ code: "idempotency-conflict" }));
    // Another team is another table's worth: the same pair there is free.
    expect(chats.register("other", { ...scout, planId: "planB" }, "gh:alice").created).toBe(true);
    expect(chats.list("team")).toEqual([first.chat]);
    expect(chats.registrantOf("team", "github:alice")).toBe("gh:alice");
    expect(chats.registrantOf("team", "github:bob")).toBeNull();
  });

  it("leaves uniqueness to the database: a second plan for a pair written straight into SQLite is refused by the constraint", () => {
    const { chats, db } = table();
    chats.register("team", scout, "gh:alice");
    const insert = db.prepare("INSERT INTO agent_chats (team, agent_id, person, plan_id, registered_by, registered_at) VALUES (?, ?, ?, ?, ?, ?)");
    expect(() => insert.run("team", "scout", "github:alice", "planB", "gh:alice", 1)).toThrow(/UNIQUE constraint failed/);
    expect(() => insert.run("team", "other-agent", "github:bob", "planA", "gh:bob", 1)).toThrow(/UNIQUE constraint failed/);
  });

  it("gives one plan to a pair registered through two connections to one file (the constraint holds across processes)", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-chats-"));
    dirs.push(dir);
    const open = () => {
      const db = new Database(join(dir, "db.sqlite"));
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 5000");
      return db;
    };
    const a = open();
    a.exec(AGENT_CHAT_TABLE_SQL);
    const b = open();
    try {
      const outcomes = [new AgentChatTable(a), new AgentChatTable(b)].map((chats, i) => {
        try {
          return chats.register("team", { ...scout, planId: `plan${i}` }, "gh:alice").chat.planId;
        } catch (error) {
          return (error as { code: string }).code;
        }
      });
      expect(outcomes).toEqual(["plan0", "idempotency-conflict"]);
      expect(new AgentChatTable(b).list("team").map((c) => c.planId)).toEqual(["plan0"]);
    } finally {
      a.close();
      b.close();
    }
  });

  it(`keeps at most MAX_AGENT_CHATS_PER_TEAM (${MAX_AGENT_CHATS_PER_TEAM}) chats per team: the last one fits, the next is refused, a held one is still answered`, () => {
    const { chats, db } = table();
    const insert = db.prepare("INSERT INTO agent_chats (team, agent_id, person, plan_id, registered_by, registered_at) VALUES ('team', ?, 'device:d', ?, 'me', 0)");
    db.transaction(() => {
      for (let i = 0; i < MAX_AGENT_CHATS_PER_TEAM - 1; i++) insert.run(`agent-${i}`, `plan-${i}`);
    })();
    expect(chats.register("team", scout, "gh:alice").created).toBe(true);
    expect(() => chats.register("team", { ...scout, agentId: "one-more", planId: "planZ" }, "gh:alice")).toThrow(expect.objectContaining({ code: "too-large" }));
    expect(chats.register("team", scout, "gh:alice").created).toBe(false);
    expect(chats.register("other", { ...scout, agentId: "one-more", planId: "planZ" }, "gh:alice").created).toBe(true);
    expect(chats.list("team")).toHaveLength(MAX_AGENT_CHATS_PER_TEAM);
  });
});
