/**
 * The relay's record of whose stars document each person's is (issue #27): one registrant per (team, person) by the
 * primary key, idempotent, another registrant refused, the bound at its edge, the id derived as the app derives it.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { agentStarsIdOf } from "../shared/node/agent-stars-identity.js";
import { AGENT_STARS_OWNERS_TABLE_SQL, AgentStarsOwners } from "./agent-stars-owners.js";

function table(max?: number) {
  const db = new Database(":memory:");
  db.exec(AGENT_STARS_OWNERS_TABLE_SQL);
  let clock = 1;
  return new AgentStarsOwners(db, { now: () => clock++, ...(max === undefined ? {} : { max }) });
}

describe("the relay's stars registrations", () => {
  it("records one registrant per person in a team, answers the same again as held, and refuses another", () => {
    const owners = table();
    const first = owners.register("t", "device:alice-laptop", "alice");
    expect(first).toEqual({
      created: true,
      stars: { person: "device:alice-laptop", documentId: agentStarsIdOf({ scope: { kind: "team", teamIndexId: "t" }, person: "device:alice-laptop" }), registeredBy: "alice", registeredAt: 1 },
    });
    expect(owners.register("t", "device:alice-laptop", "alice")).toEqual({ created: false, stars: first.stars });
    expect(() => owners.register("t", "device:alice-laptop", "bob")).toThrow(expect.objectContaining({ code: "forbidden" }));
    expect(owners.registrantOf("t", "device:alice-laptop")).toBe("alice");
    // Another team is another record.
    expect(owners.register("u", "device:alice-laptop", "bob").stars.registeredBy).toBe("bob");
    expect(owners.list("t").map((s) => s.person)).toEqual(["device:alice-laptop"]);
  });

  it("keeps at most its bound per team: the next new one is 'too-large', a held one still answers", () => {
    const owners = table(2);
    owners.register("t", "device:a", "a");
    owners.register("t", "device:b", "b");
    expect(() => owners.register("t", "device:c", "c")).toThrow(expect.objectContaining({ code: "too-large" }));
    expect(owners.register("t", "device:b", "b").created).toBe(false);
    expect(owners.register("u", "device:c", "c").created).toBe(true);
    expect(owners.list("t")).toHaveLength(2);
  });
});
