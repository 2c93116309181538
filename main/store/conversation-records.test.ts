import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../sync/test-helpers.js";
import { openLocalDb } from "./local-db.js";
import { ConversationRecords } from "./conversation-records.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function records(): ConversationRecords {
  const dir = tempDir("chopin-conversation-records-");
  const db = openLocalDb(dir.path);
  cleanups.push(() => dir.remove(), () => db.close());
  return new ConversationRecords(db);
}

describe("this device's conversation records", () => {
  it("keep the change of a message's first send, whatever a second record says", () => {
    const r = records();
    r.noteSent("plan", "entry", "hash-1", 1);
    r.noteSent("plan", "entry", "hash-2", 2);
    expect(r.sentChanges("plan")).toEqual(new Map([["entry", "hash-1"]]));
    expect(r.sentChanges("other")).toEqual(new Map());
  });

  it("keep a draft per plan and forget an empty one", () => {
    const r = records();
    r.setDraft("plan", "half", 1);
    r.setDraft("plan", "half a thought", 2);
    expect(r.draft("plan")).toBe("half a thought");
    r.setDraft("plan", "", 3);
    expect(r.draft("plan")).toBe("");
  });

  it("move a read mark only forward in causal order (seq, then time, then id)", () => {
    const r = records();
    r.markRead("plan", { seq: 3, at: 10, entryId: "b" });
    r.markRead("plan", { seq: 2, at: 99, entryId: "z" });
    r.markRead("plan", { seq: 3, at: 10, entryId: "a" });
    expect(r.readMark("plan")).toEqual({ seq: 3, at: 10, entryId: "b" });
    r.markRead("plan", { seq: 3, at: 11, entryId: "a" });
    expect(r.readMark("plan")).toEqual({ seq: 3, at: 11, entryId: "a" });
  });

  it("forget everything about a plan that left the device", () => {
    const r = records();
    r.noteSent("plan", "e", "h", 1);
    r.setDraft("plan", "d", 1);
    r.markRead("plan", { seq: 1, at: 1, entryId: "e" });
    r.forget("plan");
    expect([r.sentChanges("plan").size, r.draft("plan"), r.readMark("plan")]).toEqual([0, "", null]);
  });
});
