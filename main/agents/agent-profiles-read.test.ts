/**
 * Reading a profiles document that came from other devices: every profile checked; one that does not fit (a newer
 * app's, damaged, or written by hand) is counted and not listed while the rest still are; the Planner is always there,
 * first, named Planner; unknown tool names are not listed; the order is the same everywhere.
 */
import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { MAX_AGENT_INSTRUCTIONS_BYTES, MAX_AGENT_NAME_CHARS, MAX_AGENT_PROFILES } from "../../shared/limits.js";
import { PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { plannerProfile, readProfiles } from "./agent-profiles-read.js";

const good = (id: string, name: string) => ({
  id,
  name: new A.RawString(name),
  color: "green",
  instructions: new A.RawString("Be useful."),
  model: { kind: "provider", provider: "openai", model: new A.RawString("gpt-x") },
  tools: { read_plan: true },
  createdAt: 1,
  updatedAt: 2,
});

describe("reading agent profiles", () => {
  it("lists the Planner first (its defaults when its record is missing), then by name whatever the case, then id", () => {
    const read = readProfiles({ profiles: { b2: good("b2", "beta"), a1: good("a1", "Alpha"), c3: good("c3", "beta") } });
    expect(read.agents.map((a) => [a.id, a.name])).toEqual([[PLANNER_AGENT_ID, "Planner"], ["a1", "Alpha"], ["b2", "beta"], ["c3", "beta"]]);
    expect(read.agents[0]).toEqual(plannerProfile());
    expect(read.agents[1]).toEqual({ id: "a1", name: "Alpha", color: "green", instructions: "Be useful.", model: { kind: "provider", provider: "openai", model: "gpt-x" }, tools: ["read_plan"], builtIn: false, createdAt: 1, updatedAt: 2 });
    expect(readProfiles(undefined).agents).toEqual([plannerProfile()]);
    expect(readProfiles({ profiles: "nothing" })).toMatchObject({ agents: [plannerProfile()], unreadable: 0 });
  });

  it("skips and counts each profile that does not fit, at every bound's edge", () => {
    const bad = {
      name: { ...good("n1", "x"), name: 42 },
      long: { ...good("n2", "x"), name: "x".repeat(MAX_AGENT_NAME_CHARS + 1) },
      colour: { ...good("n3", "x"), color: "chartreuse" },
      words: { ...good("n4", "x"), instructions: "é".repeat(MAX_AGENT_INSTRUCTIONS_BYTES / 2) + "x" },
      model: { ...good("n5", "x"), model: { kind: "provider", provider: "gemini", model: "g" } },
      tools: { ...good("n6", "x"), tools: ["read_plan"] },
      when: { ...good("n7", "x"), createdAt: "yesterday" },
    };
    const ok = { ...good("e1", "x".repeat(MAX_AGENT_NAME_CHARS)), instructions: "é".repeat(MAX_AGENT_INSTRUCTIONS_BYTES / 2) };
    const profiles: Record<string, unknown> = { e1: ok, mismatch: good("someone-else", "Impostor"), "Not An Id": { ...good("Not An Id", "Bad id") } };
    for (const value of Object.values(bad)) profiles[value.id] = value;
    const read = readProfiles({ profiles });
    expect(read.agents.map((a) => a.id)).toEqual([PLANNER_AGENT_ID, "e1"]);
    expect(read.unreadable).toBe(Object.keys(bad).length + 2);
    expect(read.ids.size).toBe(Object.keys(profiles).length);
  });

  it("names the Planner Planner whatever its record says, and shows its defaults when its record is unreadable", () => {
    const renamed = readProfiles({ profiles: { planner: { ...good("planner", "Boss"), color: "red" } } });
    expect(renamed.agents[0]).toMatchObject({ id: PLANNER_AGENT_ID, name: "Planner", color: "red", builtIn: true });
    const broken = readProfiles({ profiles: { planner: { ...good("planner", "Planner"), color: 7 } } });
    expect(broken).toMatchObject({ agents: [plannerProfile()], unreadable: 1 });
  });

  it("lists only the tools this app knows, in the fixed order", () => {
    const read = readProfiles({ profiles: { a1: { ...good("a1", "A"), tools: { pull_request_read: true, future_tool: true, read_plan: true } } } });
    expect(read.agents[1]!.tools).toEqual(["read_plan", "pull_request_read"]);
  });

  it(`lists at most ${MAX_AGENT_PROFILES} besides the Planner, the first in list order, and counts the rest`, () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${String(i).padStart(3, "0")}`, good(`p${String(i).padStart(3, "0")}`, `Agent ${String(i).padStart(3, "0")}`)]));
    expect(readProfiles({ profiles: many(MAX_AGENT_PROFILES) })).toMatchObject({ unreadable: 0 });
    expect(readProfiles({ profiles: many(MAX_AGENT_PROFILES) }).agents).toHaveLength(MAX_AGENT_PROFILES + 1);
    const over = readProfiles({ profiles: many(MAX_AGENT_PROFILES + 2) });
    expect(over.agents).toHaveLength(MAX_AGENT_PROFILES + 1);
    expect(over.unreadable).toBe(2);
    expect(over.agents.at(-1)!.name).toBe(`Agent ${String(MAX_AGENT_PROFILES - 1).padStart(3, "0")}`);
  });
});
