import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DocumentSummary } from "../../shared/api.js";
import { MAX_LIST_DOCUMENTS, SEARCH_SNIPPET_CONTEXT_CHARS } from "../util/limits.js";
import { openLocalDb, type LocalDb } from "../store/local-db.js";
import { searchWords } from "../../shared/search-fold.js";
import { findBodyMatches as findByWords, snippetOf } from "./search.js";
import { findSnapshotTexts, writeSnapshot } from "./snapshot-store.js";

const dirs: string[] = [];
const dbs: LocalDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function freshDb(): LocalDb {
  const dir = mkdtempSync(join(tmpdir(), "chopin-search-"));
  dirs.push(dir);
  const db = openLocalDb(dir);
  dbs.push(db);
  return db;
}
function summary(id: string, updatedAt: number, title = id): DocumentSummary {
  return { id, title, createdVia: "app", archivedAt: null, createdAt: 0, updatedAt, shared: false };
}
function put(db: LocalDb, id: string, text: string): void {
  writeSnapshot(db, { documentId: id, heads: [], title: "stored title", text, savedAt: 1 });
}
const C = SEARCH_SNIPPET_CONTEXT_CHARS;
/** The search as the document list runs it: the query's folded words. */
const findBodyMatches = (db: LocalDb, query: string, candidates: readonly DocumentSummary[], limit?: number) =>
  findByWords(db, searchWords(query), candidates, limit);
const snippetAt = (db: LocalDb, id: string, query: string) => snippetOf(findSnapshotTexts(db, [id], searchWords(query), 1, C)[0]!);

describe("findBodyMatches", () => {
  it("matches body text ignoring case, newest first, with a one-line snippet", () => {
    const db = freshDb();
    put(db, "old", "# Goals\n\nShip the ROLLOUT   plan\nby Friday");
    put(db, "new", "rollout first");
    put(db, "none", "nothing here");
    const found = findBodyMatches(db, "rollout", [summary("old", 1), summary("none", 3), summary("new", 2)]);
    expect(found.map((d) => d.id)).toEqual(["new", "old"]);
    expect(found[0]!.matchSnippet).toBe("rollout first");
    expect(found[1]!.matchSnippet).toBe("# Goals Ship the ROLLOUT plan by Friday");
    // The summary is the candidate's (title from the index), not the snapshot's stored title.
    expect(found[1]).toEqual({ ...summary("old", 1), matchSnippet: found[1]!.matchSnippet });
  });

  it("never returns a row that is not a candidate (archived filtered out, or unknown to the list)", () => {
    const db = freshDb();
    put(db, "listed", "kiwi");
    put(db, "elsewhere", "kiwi");
    expect(findBodyMatches(db, "kiwi", [summary("listed", 1)]).map((d) => d.id)).toEqual(["listed"]);
    expect(findBodyMatches(db, "kiwi", [])).toEqual([]);
    expect(findBodyMatches(db, "", [summary("listed", 1)])).toEqual([]);
  });

  it("a candidate without a snapshot is simply not found by its body", () => {
    const db = freshDb();
    expect(findBodyMatches(db, "kiwi", [summary("unsaved", 1)])).toEqual([]);
  });

  it("folds non-ASCII letters too, like the title match", () => {
    const db = freshDb();
    put(db, "fr", "Plan d'ÉTÉ pour l'équipe");
    put(db, "de", "STRASSE und Straße");
    expect(findBodyMatches(db, "été", [summary("fr", 1)])[0]?.matchSnippet).toBe("Plan d'ÉTÉ pour l'équipe");
    expect(findBodyMatches(db, "straße", [summary("de", 1)]).map((d) => d.id)).toEqual(["de"]);
    expect(findBodyMatches(db, "ø", [summary("fr", 1), summary("de", 2)])).toEqual([]);
  });

  it("ignores accents both ways, composed or not, and finds every word anywhere (UX audit)", () => {
    const db = freshDb();
    put(db, "cafe", "Notes from the Café: the Überblick");
    put(db, "decomposed", "cafe\u0301 au lait");
    put(db, "fox", "The quick brown fox, with **bold** and `code`");
    const ids = (query: string) => findBodyMatches(db, query, [summary("cafe", 3), summary("decomposed", 2), summary("fox", 1)]).map((d) => d.id);
    expect(ids("cafe")).toEqual(["cafe", "decomposed"]);
    expect(ids("café")).toEqual(["cafe", "decomposed"]);
    expect(ids("uberblick")).toEqual(["cafe"]);
    expect(ids("quick fox")).toEqual(["fox"]);
    expect(ids("fox quick")).toEqual(["fox"]);
    expect(ids("bold code")).toEqual(["fox"]);
    expect(ids("fox cat")).toEqual([]);
    // The snippet is the original text around the first word.
    expect(findBodyMatches(db, "uberblick cafe", [summary("cafe", 1)])[0]?.matchSnippet).toBe("Notes from the Café: the Überblick");
  });

  it("returns at most the limit: MAX_LIST_DOCUMENTS by default, the newest ones", () => {
    const db = freshDb();
    const candidates: DocumentSummary[] = [];
    db.transaction(() => {
      for (let i = 0; i <= MAX_LIST_DOCUMENTS; i += 1) {
        put(db, `d${i}`, `entry ${i} mentions kiwi`);
        candidates.push(summary(`d${i}`, i));
      }
    })();
    const found = findBodyMatches(db, "kiwi", candidates);
    expect(found).toHaveLength(MAX_LIST_DOCUMENTS);
    expect(found[0]!.id).toBe(`d${MAX_LIST_DOCUMENTS}`);
    expect(found.some((d) => d.id === "d0")).toBe(false);
    expect(findBodyMatches(db, "kiwi", candidates.slice(0, MAX_LIST_DOCUMENTS))).toHaveLength(MAX_LIST_DOCUMENTS);
    expect(findBodyMatches(db, "mentions", candidates, 2).map((d) => d.id)).toEqual([`d${MAX_LIST_DOCUMENTS}`, `d${MAX_LIST_DOCUMENTS - 1}`]);
    // Folded matches stop at the limit as well.
    put(db, "d5", "Été"), put(db, "d6", "été");
    expect(findBodyMatches(db, "été", candidates, 1).map((d) => d.id)).toEqual(["d6"]);
  });
});

describe("snippets", () => {
  it("keep SEARCH_SNIPPET_CONTEXT_CHARS either side: no ellipsis at the bound, cut above it", () => {
    const db = freshDb();
    const atBound = `${"a".repeat(C)}KIWI${"b".repeat(C)}`;
    const above = `x${atBound}y`;
    put(db, "at", atBound);
    put(db, "above", above);
    expect(findSnapshotTexts(db, ["at", "above"], ["kiwi"], 10, C).map(snippetOf)).toEqual([atBound, `…${atBound}…`]);
    // Accented text folds to the same length, so the window is the same around the original.
    const accented = `${"é".repeat(C)}KÍWI${"ü".repeat(C)}`;
    put(db, "accented", `x${accented}y`);
    expect(snippetAt(db, "accented", "kiwi")).toBe(`…${accented}…`);
  });

  it("the window counts characters, never splitting a surrogate pair", () => {
    const db = freshDb();
    put(db, "emoji", `${"😀".repeat(C + 5)}kiwi${"😀".repeat(C + 5)}`);
    expect(snippetAt(db, "emoji", "kiwi")).toBe(`…${"😀".repeat(C)}kiwi${"😀".repeat(C)}…`);
  });

  it("shows the first hit of the first word", () => {
    const db = freshDb();
    put(db, "two", `kiwi ${"-".repeat(100)} KIWI two`);
    expect(snippetAt(db, "two", "kiwi")).toBe(`kiwi ${"-".repeat(C - 1)}…`);
  });
});
