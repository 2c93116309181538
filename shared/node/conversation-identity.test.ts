import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, isValidDocumentId, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { readEntries, type ConversationDocument } from "../schema/conversation.js";
import { conversationGenesis, conversationIdOf, entryIdOf } from "./conversation-identity.js";

const newPlanId = (): DocumentId => parseAutomergeUrl(generateAutomergeUrl()).documentId;

describe("a plan's conversation identity", () => {
  it("derives one valid document id per plan, different from the plan's and from another plan's", () => {
    const plan = newPlanId();
    const id = conversationIdOf(plan);
    expect(isValidDocumentId(id)).toBe(true);
    expect(conversationIdOf(plan)).toBe(id);
    expect(id).not.toBe(plan);
    expect(conversationIdOf(newPlanId())).not.toBe(id);
  });

  it("begins with the same bytes on every device, so two offline starts are one document whose entries merge", () => {
    const plan = newPlanId();
    const genesis = conversationGenesis(plan);
    expect(Buffer.from(conversationGenesis(plan)).equals(Buffer.from(genesis))).toBe(true);
    let alice = A.load<ConversationDocument>(genesis, { actor: "aa".repeat(16) });
    let bob = A.load<ConversationDocument>(conversationGenesis(plan), { actor: "bb".repeat(16) });
    const entry = (id: string, text: string) => ({ id, seq: 1, author: { kind: "system" }, to: "room", text, at: 1, clientRequestId: id });
    alice = A.change(alice, (d) => void (d.entries["a".repeat(32)] = entry("a".repeat(32), "from alice")));
    bob = A.change(bob, (d) => void (d.entries["b".repeat(32)] = entry("b".repeat(32), "from bob")));
    const merged = A.merge(alice, bob);
    expect(readEntries(merged).entries.map((e) => e.text)).toEqual(["from alice", "from bob"]);
    expect(merged.planId.toString()).toBe(plan);
    expect(A.getHeads(merged)).toHaveLength(2);
  });

  it("gives an entry the same id for every retry of one send by one author, and another id to anyone else", () => {
    const alice = { kind: "person", name: "Alice", login: "alice", device: "device-1" } as const;
    const aliceElsewhere = { kind: "person", name: "Alice at home", login: "Alice", device: "device-2" } as const;
    const anonymous = { kind: "person", name: "Alice", device: "device-1" } as const;
    expect(entryIdOf(alice, "req-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(entryIdOf(alice, "req-1")).toBe(entryIdOf(aliceElsewhere, "req-1"));
    expect(entryIdOf(alice, "req-2")).not.toBe(entryIdOf(alice, "req-1"));
    expect(entryIdOf(anonymous, "req-1")).not.toBe(entryIdOf(alice, "req-1"));
    expect(entryIdOf({ kind: "planner" }, "req-1")).not.toBe(entryIdOf({ kind: "system" }, "req-1"));
  });
});
