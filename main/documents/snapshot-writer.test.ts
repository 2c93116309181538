import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import type { ChopinError } from "../../shared/errors.js";
import { MAX_SNAPSHOT_TEXT_BYTES, SNAPSHOT_WRITE_INTERVAL_MS, STORAGE_RETRY_MS } from "../util/limits.js";
import { fillDatabase } from "../store/full-database.js";
import { openLocalDb, type LocalDb } from "../store/local-db.js";
import { readSnapshot, writeSnapshot } from "./snapshot-store.js";
import { SnapshotWriter, type SnapshotSource } from "./snapshot-writer.js";

type Plan = { kind: string; title: string; text: string };

/** A real Automerge document behind the three methods the writer reads. */
class Source implements SnapshotSource {
  ready = true;
  constructor(
    readonly documentId: string,
    public current: A.Doc<Plan>,
  ) {}
  static plan(id: string, text: string): Source {
    return new Source(id, A.from<Plan>({ kind: "plan", title: "T", text }));
  }
  isReady() {
    return this.ready;
  }
  doc() {
    return this.current;
  }
  edit(text: string) {
    this.current = A.change(this.current, (d) => A.updateText(d, ["text"], text));
  }
}

let dir: string;
let db: LocalDb;
let writes: number;
let writer: SnapshotWriter;
beforeEach(() => {
  vi.useFakeTimers();
  dir = mkdtempSync(join(tmpdir(), "chopin-snapw-"));
  db = openLocalDb(dir);
  writes = 0;
  // now() is read once per write, so it doubles as a write counter.
  writer = new SnapshotWriter({ db, now: () => ++writes });
});
afterEach(() => {
  vi.useRealTimers();
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SnapshotWriter", () => {
  it("writes once per SNAPSHOT_WRITE_INTERVAL_MS with the newest text, not before the interval", () => {
    const src = Source.plan("d", "a");
    writer.changed(src);
    src.edit("ab");
    writer.changed(src);
    vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS - 1);
    expect(readSnapshot(db, "d")).toBeNull();
    src.edit("abc");
    writer.changed(src);
    vi.advanceTimersByTime(1);
    const row = readSnapshot(db, "d");
    expect(row).toMatchObject({ text: "abc", title: "T", heads: A.getHeads(src.current) });
    expect(writes).toBe(1);
    // The next change starts a new interval.
    src.edit("abcd");
    writer.changed(src);
    vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS - 1);
    expect(readSnapshot(db, "d")?.text).toBe("abc");
    vi.advanceTimersByTime(1);
    expect(readSnapshot(db, "d")?.text).toBe("abcd");
    expect(writes).toBe(2);
  });

  it("flush writes pending snapshots at once; close flushes and then ignores changes", () => {
    const a = Source.plan("a", "one");
    const b = Source.plan("b", "two");
    writer.changed(a);
    writer.changed(b);
    expect(writer.pendingIds().sort()).toEqual(["a", "b"]);
    writer.flush();
    expect(readSnapshot(db, "a")?.text).toBe("one");
    expect(readSnapshot(db, "b")?.text).toBe("two");
    a.edit("three");
    writer.changed(a);
    writer.close();
    expect(readSnapshot(db, "a")?.text).toBe("three");
    a.edit("four");
    writer.changed(a);
    expect(writer.pendingIds()).toEqual([]);
    vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS * 2);
    expect(readSnapshot(db, "a")?.text).toBe("three");
  });

  it(`keeps a text of exactly MAX_SNAPSHOT_TEXT_BYTES and drops one byte more`, () => {
    // "é" is two UTF-8 bytes: bytes, not characters, are what is bounded.
    const atBound = "é".repeat(MAX_SNAPSHOT_TEXT_BYTES / 2);
    const src = Source.plan("d", atBound);
    writer.changed(src);
    writer.flush();
    expect(readSnapshot(db, "d")?.text.length).toBe(MAX_SNAPSHOT_TEXT_BYTES / 2);
    src.edit(`${atBound}x`);
    writer.changed(src);
    writer.flush();
    expect(readSnapshot(db, "d")).toBeNull();
  });

  it("writes nothing for documents that are not plans or not ready", () => {
    const index = new Source("i", A.from({ kind: "workspace-index", title: "x", text: "y" }) as unknown as A.Doc<Plan>);
    const loading = Source.plan("l", "z");
    loading.ready = false;
    writer.changed(index);
    writer.changed(loading);
    writer.flush();
    expect(readSnapshot(db, "i")).toBeNull();
    expect(readSnapshot(db, "l")).toBeNull();
  });

  it("forget cancels a pending write and removes the row", () => {
    const src = Source.plan("d", "secret");
    writer.changed(src);
    writer.flush();
    src.edit("more");
    writer.changed(src);
    writer.forget("d");
    vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS);
    expect(readSnapshot(db, "d")).toBeNull();
  });

  it("ensure schedules a write only for a missing or stale row", () => {
    const src = Source.plan("d", "x");
    writer.ensure(src);
    expect(writer.pendingIds()).toEqual(["d"]);
    writer.flush();
    writer.ensure(src);
    expect(writer.pendingIds()).toEqual([]);
    writeSnapshot(db, { documentId: "d", heads: ["f".repeat(64)], title: "T", text: "old", savedAt: 0 });
    writer.ensure(src);
    expect(writer.pendingIds()).toEqual(["d"]);
  });

  it("tries a write the database refused (a full disk) again until it lands, with no new change; says so once", () => {
    const faults: ChopinError[] = [];
    writer = new SnapshotWriter({ db, now: () => ++writes, onFault: (failure) => faults.push(failure) });
    const src = Source.plan("d", "typed before the disk filled");
    writer.changed(src);
    writer.flush();
    // Longer than the room left in place: the row needs new pages, which a full disk has none of.
    const typed = "typed on a full disk. ".repeat(400);
    src.edit(typed);
    const disk = fillDatabase(db, ["document_snapshots"]);
    writer.changed(src);
    // The refused write is not thrown into the timer (that would end the process).
    expect(() => vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS)).not.toThrow();
    expect(readSnapshot(db, "d")?.text).toBe("typed before the disk filled");
    expect(faults).toMatchObject([{ code: "storage-failure", details: { sqliteCode: "SQLITE_FULL" } }]);
    vi.advanceTimersByTime(STORAGE_RETRY_MS);
    expect(faults).toHaveLength(1);
    expect(writer.pendingIds()).toEqual(["d"]);

    disk.free();
    vi.advanceTimersByTime(STORAGE_RETRY_MS);
    // Search and a first paint read this row: it shows the plan as it is, not as it was before the disk filled.
    expect(readSnapshot(db, "d")).toMatchObject({ text: typed, heads: A.getHeads(src.current) });
    expect(writer.pendingIds()).toEqual([]);
  });

  it("a closed database does not make a late write throw", () => {
    const src = Source.plan("d", "x");
    writer.changed(src);
    db.close();
    expect(() => vi.advanceTimersByTime(SNAPSHOT_WRITE_INTERVAL_MS)).not.toThrow();
  });
});
