/**
 * An agent chat's identity: the same id and genesis bytes for one (scope, agent, person) on every device, another id
 * when any of them differs, and a genesis that reads as an empty plan marked as that chat's.
 */
import { next as A } from "@automerge/automerge";
import { isValidDocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { planDocumentSchema, type PlanDocument } from "../schema/plan-document.js";
import { agentChatGenesis, agentChatIdOf, type AgentChatKey } from "./agent-chat-identity.js";

const key: AgentChatKey = { scope: { kind: "team", teamIndexId: "2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" }, agentId: "a".repeat(32), person: "github:alice" };

describe("an agent chat's identity", () => {
  it("derives one valid id for the same inputs, on every call", () => {
    const id = agentChatIdOf(key);
    expect(isValidDocumentId(id)).toBe(true);
    expect(agentChatIdOf({ ...key, scope: { ...key.scope } })).toBe(id);
  });

  it("derives another id when any input differs: the scope's kind or name, the agent, the person", () => {
    const id = agentChatIdOf(key);
    const others: AgentChatKey[] = [
      { ...key, scope: { kind: "team", teamIndexId: "another-team" } },
      { ...key, scope: { kind: "device", deviceId: "2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" } },
      { ...key, agentId: "b".repeat(32) },
      { ...key, agentId: "planner" },
      { ...key, person: "github:bob" },
      { ...key, person: "device:2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" },
    ];
    const ids = others.map(agentChatIdOf);
    expect(new Set([id, ...ids]).size).toBe(others.length + 1);
  });

  it("refuses a part holding a line break, so two keys can never hash the same text", () => {
    expect(() => agentChatIdOf({ ...key, person: "github:alice\nplanner" })).toThrow(TypeError);
  });

  it("begins every replica from the same bytes: an empty plan marked as this chat's, at time 0", () => {
    const genesis = agentChatGenesis(key);
    expect(Buffer.from(agentChatGenesis({ ...key })).equals(Buffer.from(genesis))).toBe(true);
    for (const other of [{ ...key, person: "github:bob" }, { ...key, agentId: "planner" }, { ...key, scope: { kind: "device" as const, deviceId: "d" } }]) {
      expect(Buffer.from(agentChatGenesis(other)).equals(Buffer.from(genesis))).toBe(false);
    }
    const doc = A.load<PlanDocument>(genesis);
    const plan = planDocumentSchema.parse(doc);
    expect(plan).toMatchObject({ kind: "plan", text: "", archivedAt: null, createdAt: 0, agentChat: { agentId: key.agentId, person: "github:alice" } });
    expect(A.getAllChanges(doc).map((change) => A.decodeChange(change).time)).toEqual([0]);
  });

  it("merges two devices' first writes into one document", () => {
    let mine = A.load<PlanDocument>(agentChatGenesis(key), { actor: "aa".repeat(16) });
    let other = A.load<PlanDocument>(agentChatGenesis(key), { actor: "bb".repeat(16) });
    mine = A.change(mine, (d) => A.splice(d, ["text"], 0, 0, "one "));
    other = A.change(other, (d) => A.splice(d, ["text"], 0, 0, "two "));
    const merged = A.merge(mine, other);
    expect(merged.text.length).toBe(8);
    expect(A.getHeads(merged)).toHaveLength(2);
  });
});
