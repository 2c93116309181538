/**
 * The plan handoffs table (issue #27): which plan a handoff key names is decided by the table's constraints, not by
 * a read before the write: a second reservation of a key gets the first one's plan id, a plain insert of a taken key
 * or of a taken plan id is refused by SQLite itself, and a commit stays.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openLocalDb, type LocalDb } from "./local-db.js";
import { commitHandoff, findHandoff, reserveHandoff } from "./plan-handoffs.js";

let db: LocalDb;
let dir: string;
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): LocalDb {
  dir = mkdtempSync(join(tmpdir(), "chopin-handoffs-"));
  db = openLocalDb(dir);
  return db;
}

describe("plan handoffs", () => {
  it("names one plan per key: a second reservation gets the first plan id, also after the database is opened again", () => {
    open();
    expect(findHandoff(db, "chat", "k")).toBeNull();
    expect(reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-1", at: 1 })).toEqual({ documentId: "plan-1", committedAt: null });
    expect(reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-2", at: 2 })).toEqual({ documentId: "plan-1", committedAt: null });
    // The same key in another chat is another handoff.
    expect(reserveHandoff(db, { chatPlanId: "other-chat", key: "k", documentId: "plan-3", at: 3 }).documentId).toBe("plan-3");
    db.close();
    db = openLocalDb(dir);
    expect(reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-4", at: 4 }).documentId).toBe("plan-1");
  });

  it("is kept by the constraints: SQLite refuses a second row for a key and two keys naming one plan", () => {
    open();
    reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-1", at: 1 });
    const insert = db.prepare("INSERT INTO plan_handoffs (chat_plan_id, handoff_key, document_id, reserved_at) VALUES (?, ?, ?, ?)");
    expect(() => insert.run("chat", "k", "plan-2", 2)).toThrow(expect.objectContaining({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" }));
    expect(() => insert.run("chat", "k2", "plan-1", 2)).toThrow(expect.objectContaining({ code: "SQLITE_CONSTRAINT_UNIQUE" }));
  });

  it("marks a handoff committed once, and a reservation after that still names its plan", () => {
    open();
    reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-1", at: 1 });
    commitHandoff(db, "chat", "k", 10);
    commitHandoff(db, "chat", "k", 20);
    expect(findHandoff(db, "chat", "k")).toEqual({ documentId: "plan-1", committedAt: 10 });
    expect(reserveHandoff(db, { chatPlanId: "chat", key: "k", documentId: "plan-9", at: 30 })).toEqual({ documentId: "plan-1", committedAt: 10 });
  });
});
