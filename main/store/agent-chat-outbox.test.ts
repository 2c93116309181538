import { afterEach, describe, expect, it } from "vitest";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_MESSAGE_BYTES } from "../../shared/limits.js";
import { tempDir } from "../sync/test-helpers.js";
import { AGENT_CHAT_DELIVERED_ROWS_KEPT, MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON } from "../util/limits.js";
import { AgentChatOutboxRecords, type OutboxChat } from "./agent-chat-outbox.js";
import { openLocalDb, type LocalDb } from "./local-db.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function opened(): { db: LocalDb; outbox: AgentChatOutboxRecords } {
  const dir = tempDir("chopin-agent-chat-outbox-");
  const db = openLocalDb(dir.path);
  cleanups.push(() => dir.remove(), () => db.close());
  return { db, outbox: new AgentChatOutboxRecords(db) };
}

const chat: OutboxChat = { scope: { kind: "device", id: "dev-1" }, agentId: "planner", person: "device:dev-1" };
const insert = (db: LocalDb, id: string, text: string, extra = "") =>
  db.prepare(`INSERT INTO agent_chat_outbox (client_request_id, scope_kind, scope_id, agent_id, person, text, queued_at${extra ? ", " + extra.split("=")[0] : ""}) VALUES (?, 'device', 'd', 'a', 'p', ?, 1${extra ? ", " + extra.split("=")[1] : ""})`).run(id, text);

describe("the agent chat outbox table", () => {
  it("refuses by its constraints, not by code: a second row for a key, text and keys beyond their bounds, half a delivery", () => {
    const { db } = opened();
    insert(db, "k", "hello");
    expect(() => insert(db, "k", "hello")).toThrow(/UNIQUE constraint failed: agent_chat_outbox.client_request_id/);
    // Text: 1 to MAX_MESSAGE_BYTES bytes of UTF-8 (a shipped step keeps its literal: this is where they must agree).
    insert(db, "at-bound", "é".repeat(MAX_MESSAGE_BYTES / 2));
    expect(() => insert(db, "past-bound", "é".repeat(MAX_MESSAGE_BYTES / 2) + "x")).toThrow(/CHECK constraint failed/);
    expect(() => insert(db, "empty", "")).toThrow(/CHECK constraint failed/);
    insert(db, "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS), "hi");
    expect(() => insert(db, "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS + 1), "hi")).toThrow(/CHECK constraint failed/);
    expect(() => insert(db, "half", "hi", "delivered_at=5")).toThrow(/CHECK constraint failed/);
    expect(() => insert(db, "failed-without-error", "hi", "failed_at=5")).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare("INSERT INTO agent_chat_outbox (client_request_id, scope_kind, scope_id, agent_id, person, text, queued_at) VALUES ('s', 'elsewhere', 'd', 'a', 'p', 't', 1)").run()).toThrow(/CHECK constraint failed/);
  });
});

describe("this device's agent chat outbox", () => {
  it("queues a send once: a retry finds its row; the same key with another text or agent is refused, the row unchanged", () => {
    const { outbox } = opened();
    const first = outbox.queue(chat, "c-1", "hello", 10);
    expect(first).toMatchObject({ inserted: true, row: { clientRequestId: "c-1", text: "hello", queuedAt: 10, entryId: null, error: null, failedAt: null, ...chat } });
    expect(outbox.queue(chat, "c-1", "hello", 20)).toEqual({ inserted: false, row: first.row });
    expect(() => outbox.queue(chat, "c-1", "hello!", 30)).toThrow(expect.objectContaining({ code: "invalid-input", details: { field: "clientRequestId" } }));
    expect(() => outbox.queue({ ...chat, agentId: "other" }, "c-1", "hello", 30)).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(outbox.byRequest("c-1")).toEqual(first.row);
  });

  it("lists a person's undelivered sends in send order, by chat; delivered and refused-for-good ones leave the list", () => {
    const { outbox } = opened();
    const a = outbox.queue(chat, "a", "one", 1).row;
    outbox.queue({ ...chat, agentId: "scout" }, "b", "two", 2);
    const c = outbox.queue(chat, "c", "three", 3).row;
    outbox.queue({ ...chat, person: "github:bob" }, "d", "four", 4);
    expect(outbox.undelivered(chat.scope, chat.person).map((r) => r.clientRequestId)).toEqual(["a", "b", "c"]);
    expect(outbox.undelivered(chat.scope, chat.person, { agentId: "planner" }).map((r) => r.clientRequestId)).toEqual(["a", "c"]);
    outbox.delivered(a.seq, "entry-a", 5);
    outbox.refused(c.seq, { code: "invalid-document", message: "Unreadable." }, true, 6);
    expect(outbox.undelivered(chat.scope, chat.person).map((r) => r.clientRequestId)).toEqual(["b"]);
    expect(outbox.undelivered(chat.scope, chat.person, { withFailed: true }).map((r) => [r.clientRequestId, r.error?.code ?? null])).toEqual([["b", null], ["c", "invalid-document"]]);
    expect(outbox.byRequest("a")).toMatchObject({ entryId: "entry-a", deliveredAt: 5 });
    // Sent again: waits in its place.
    outbox.rearm(c.seq);
    expect(outbox.undelivered(chat.scope, chat.person).map((r) => r.clientRequestId)).toEqual(["b", "c"]);
  });

  it("makes sends queued while a relay's team was pending that team's, once known", () => {
    const { outbox } = opened();
    const pending: OutboxChat = { ...chat, scope: { kind: "pending", id: "ws://relay-a" } };
    outbox.queue(pending, "p-1", "one", 1);
    outbox.queue({ ...pending, scope: { kind: "pending", id: "ws://relay-b" } }, "p-2", "two", 2);
    const team = { kind: "team" as const, id: "team-a" };
    expect(outbox.undelivered(team, chat.person, { pendingRelay: "ws://relay-a" }).map((r) => r.clientRequestId)).toEqual(["p-1"]);
    expect(outbox.resolvePending("ws://relay-a", "team-a")).toBe(1);
    expect(outbox.undelivered(team, chat.person).map((r) => [r.clientRequestId, r.scope])).toEqual([["p-1", team]]);
    expect(outbox.byRequest("p-2")!.scope).toEqual({ kind: "pending", id: "ws://relay-b" });
  });

  it(`keeps at most ${MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON} undelivered sends per person: the next is refused, a retry still found`, () => {
    const { outbox } = opened();
    for (let i = 0; i < MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON; i++) outbox.queue(chat, `c-${i}`, "hi", i);
    expect(() => outbox.queue(chat, "one-more", "hi", 1)).toThrow(expect.objectContaining({ code: "too-large" }));
    expect(outbox.queue(chat, "c-0", "hi", 1).inserted).toBe(false);
    // Another person's are theirs; a delivery makes room.
    expect(outbox.queue({ ...chat, person: "github:bob" }, "bob-1", "hi", 1).inserted).toBe(true);
    outbox.delivered(outbox.byRequest("c-0")!.seq, "e", 2);
    expect(outbox.queue(chat, "one-more", "hi", 3).inserted).toBe(true);
  });

  it(`keeps the newest ${AGENT_CHAT_DELIVERED_ROWS_KEPT} delivered rows, and every undelivered one`, () => {
    const { outbox } = opened();
    const waiting = outbox.queue(chat, "waiting", "hi", 0).row;
    for (let i = 0; i < AGENT_CHAT_DELIVERED_ROWS_KEPT; i++) outbox.delivered(outbox.queue(chat, `d-${i}`, "hi", i).row.seq, `e-${i}`, i);
    expect(outbox.byRequest("d-0")).not.toBeNull();
    outbox.delivered(outbox.queue(chat, "d-last", "hi", 1).row.seq, "e-last", 1);
    expect(outbox.byRequest("d-0")).toBeNull();
    expect(outbox.byRequest("d-1")).not.toBeNull();
    expect(outbox.byRequest("waiting")).toEqual(waiting);
  });

  it("discards a send only while it is not delivered, by the DELETE's own WHERE; its key then queues a new send at the end", () => {
    const { outbox } = opened();
    const a = outbox.queue(chat, "a", "one", 1).row;
    const b = outbox.queue(chat, "b", "two", 2).row;
    outbox.queue(chat, "c", "three", 3);
    outbox.delivered(a.seq, "entry-a", 4);
    // Delivered: the statement itself keeps it, whatever the caller believed.
    expect(outbox.discard("a", chat.agentId, chat.person)).toBe(false);
    expect(outbox.byRequest("a")).toMatchObject({ entryId: "entry-a", deliveredAt: 4 });
    // Another agent's or person's key is not theirs to discard.
    expect(outbox.discard("b", "scout", chat.person)).toBe(false);
    expect(outbox.discard("b", chat.agentId, "github:bob")).toBe(false);
    expect(outbox.stillUndelivered(b.seq)).toBe(true);
    // Refused for good or waiting, it goes; twice is nothing.
    outbox.refused(b.seq, { code: "invalid-document", message: "Unreadable." }, true, 5);
    expect(outbox.discard("b", chat.agentId, chat.person)).toBe(true);
    expect(outbox.discard("b", chat.agentId, chat.person)).toBe(false);
    expect(outbox.byRequest("b")).toBeNull();
    expect(outbox.stillUndelivered(b.seq)).toBe(false);
    expect(outbox.stillUndelivered(a.seq)).toBe(false);
    // The key is free again: a new send, with another text even, after the ones still waiting.
    const again = outbox.queue(chat, "b", "two, rewritten", 6);
    expect(again).toMatchObject({ inserted: true, row: { text: "two, rewritten", error: null, failedAt: null } });
    expect(again.row.seq).toBeGreaterThan(b.seq);
    expect(outbox.undelivered(chat.scope, chat.person).map((r) => r.clientRequestId)).toEqual(["c", "b"]);
  });
});
