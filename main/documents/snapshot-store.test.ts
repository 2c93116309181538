import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { localDbPath, openLocalDb, type LocalDb } from "../store/local-db.js";
import { LOCAL_DB_MIGRATIONS } from "../store/migrations.js";
import { migrate, schemaVersionOf } from "../../shared/node/sqlite-migrate.js";
import { getSetting, setSetting } from "../store/settings.js";
import { deleteSnapshot, readSnapshot, readSnapshotHeads, sameHeads, writeSnapshot } from "./snapshot-store.js";

const dirs: string[] = [];
const dbs: LocalDb[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "chopin-snap-"));
  dirs.push(dir);
  return dir;
}
function open(dir: string): LocalDb {
  const db = openLocalDb(dir);
  dbs.push(db);
  return db;
}
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const H1 = "a".repeat(64);
const H2 = "b".repeat(64);

describe("document_snapshots migration", () => {
  it("a schema-1 database gains the table and keeps its data", () => {
    const dir = freshDir();
    const old = new BetterSqlite3(localDbPath(dir));
    expect(migrate(old, LOCAL_DB_MIGRATIONS.slice(0, 1))).toBe(1);
    setSetting(old, "kept", "yes");
    old.close();
    const db = open(dir);
    expect(schemaVersionOf(db)).toBe(LOCAL_DB_MIGRATIONS.length);
    expect(getSetting(db, "kept")).toBe("yes");
    expect(readSnapshot(db, "d1")).toBeNull();
  });

  it("the PRIMARY KEY refuses a second row for a document and STRICT refuses a non-integer time", () => {
    const db = open(freshDir());
    const insert = db.prepare("INSERT INTO document_snapshots (document_id, heads, title, text, saved_at) VALUES (?, ?, ?, ?, ?)");
    insert.run("d", "[]", "t", "x", 1);
    expect(() => insert.run("d", "[]", "t", "y", 2)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run("e", "[]", "t", "y", "soon")).toThrow(/cannot store TEXT value in INTEGER column/);
  });
});

describe("snapshot rows", () => {
  it("round-trips, stores heads sorted and overwrites in place", () => {
    const db = open(freshDir());
    writeSnapshot(db, { documentId: "d", heads: [H2, H1], title: "T", text: "# Hi", savedAt: 5 });
    expect(readSnapshot(db, "d")).toEqual({ documentId: "d", heads: [H1, H2], title: "T", text: "# Hi", savedAt: 5 });
    writeSnapshot(db, { documentId: "d", heads: [H1], title: "T2", text: "", savedAt: 6 });
    expect(readSnapshot(db, "d")).toEqual({ documentId: "d", heads: [H1], title: "T2", text: "", savedAt: 6 });
    expect(readSnapshotHeads(db, "d")).toEqual([H1]);
    expect(db.prepare("SELECT COUNT(*) AS n FROM document_snapshots").get()).toEqual({ n: 1 });
    deleteSnapshot(db, "d");
    expect(readSnapshot(db, "d")).toBeNull();
    expect(readSnapshotHeads(db, "d")).toBeNull();
  });

  it("a damaged heads column reads as no snapshot", () => {
    const db = open(freshDir());
    db.prepare("INSERT INTO document_snapshots (document_id, heads, title, text, saved_at) VALUES ('d', '{not json', 't', 'x', 1)").run();
    expect(readSnapshot(db, "d")).toBeNull();
    db.prepare("UPDATE document_snapshots SET heads = '[1,2]'").run();
    expect(readSnapshot(db, "d")).toBeNull();
  });

  it("compares heads as sets of equal size", () => {
    expect(sameHeads([H1, H2], [H2, H1])).toBe(true);
    expect(sameHeads([H1], [H1, H2])).toBe(false);
    expect(sameHeads([H1], [H2])).toBe(false);
    expect(sameHeads([], [])).toBe(true);
  });
});
