import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_MESSAGE_BYTES } from "../limits.js";
import { conversationEntrySchema, readEntries, type ConversationDocument } from "./conversation.js";

const person = { kind: "person", name: "Ada", login: "ada", device: "device-1" } as const;
const entry = (over: Record<string, unknown> = {}) => ({ id: "0".repeat(32), seq: 1, author: person, to: "room", text: "hi", at: 10, clientRequestId: "r1", ...over });

describe("conversation entries", () => {
  it("accept a message of exactly MAX_MESSAGE_BYTES of UTF-8 and refuse one byte more", () => {
    const atCap = "é".repeat(MAX_MESSAGE_BYTES / 2);
    expect(conversationEntrySchema.safeParse(entry({ text: atCap })).success).toBe(true);
    expect(conversationEntrySchema.safeParse(entry({ text: `${atCap}a` })).success).toBe(false);
    expect(conversationEntrySchema.safeParse(entry({ text: "" })).success).toBe(false);
  });

  it("accept a clientRequestId of MAX_CLIENT_REQUEST_ID_CHARS and refuse a longer one", () => {
    expect(conversationEntrySchema.safeParse(entry({ clientRequestId: "r".repeat(MAX_CLIENT_REQUEST_ID_CHARS) })).success).toBe(true);
    expect(conversationEntrySchema.safeParse(entry({ clientRequestId: "r".repeat(MAX_CLIENT_REQUEST_ID_CHARS + 1) })).success).toBe(false);
  });

  it("refuse an author that is no person, Planner or system, and a person without a device", () => {
    expect(conversationEntrySchema.safeParse(entry({ author: { kind: "robot" } })).success).toBe(false);
    expect(conversationEntrySchema.safeParse(entry({ author: { kind: "person", name: "Ada" } })).success).toBe(false);
    expect(conversationEntrySchema.safeParse(entry({ author: { ...person, login: "-bad-" } })).success).toBe(false);
  });

  it("accept a failed turn's mark only as true", () => {
    const answer = { author: { kind: "planner" }, turnId: "t1", turn: "answered" };
    expect(conversationEntrySchema.safeParse(entry({ ...answer, failed: true })).success).toBe(true);
    expect(conversationEntrySchema.safeParse(entry(answer)).data).not.toHaveProperty("failed");
    expect(conversationEntrySchema.safeParse(entry({ ...answer, failed: false })).success).toBe(false);
    expect(conversationEntrySchema.safeParse(entry({ ...answer, failed: "yes" })).success).toBe(false);
  });

  it("read scalar strings back as strings, in causal order (seq, then time, then id), leaving out what does not parse", () => {
    let doc = A.from<ConversationDocument>({ schemaVersion: 1, kind: "conversation", planId: "p", entries: {} });
    doc = A.change(doc, (d) => {
      const put = (id: string, seq: number, at: number, text: string) =>
        (d.entries[id] = { ...entry({ id, seq, at }), text: new A.RawString(text), author: { ...person, name: new A.RawString("Ada") } });
      put("c".repeat(32), 2, 5, "reply written on a slow clock");
      put("b".repeat(32), 1, 20, "second of two written concurrently");
      put("a".repeat(32), 1, 20, "first of two written concurrently");
      d.entries["d".repeat(32)] = { junk: true };
      d.entries["e".repeat(32)] = entry({ id: "f".repeat(32), text: "filed under another id" });
    });
    const { entries, unreadable } = readEntries(doc);
    expect(entries.map((e) => e.text)).toEqual(["first of two written concurrently", "second of two written concurrently", "reply written on a slow clock"]);
    expect(unreadable).toBe(2);
    expect(typeof entries[0]!.author).toBe("object");
  });
});
