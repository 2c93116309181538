/**
 * Child process (fresh): opens the paper-trace document the way the app would, from its SQLite store.
 * Mode "snapshot": read the prototype text snapshot, paint it read-only, then load the document through
 * automerge-repo and make the editor editable once heads are checked. Mode "no-snapshot": load, then paint.
 * Times are from the start of the open, after modules are loaded (the app loads them at startup, not per open).
 */
import * as A from "@automerge/automerge";
import { Repo, type AutomergeUrl, type PeerId } from "@automerge/automerge-repo";
import { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import { announceResult } from "../lib/child.js";
import { STORE_PATH, readValidMeta } from "./cache.js";
import { loadJsdomEditor } from "./jsdom-editor.js";
import { readSnapshot, snapshotIsCurrent } from "./snapshot-store.js";

const mode = process.argv[2];
if (mode !== "snapshot" && mode !== "no-snapshot") throw new Error(`mode must be snapshot or no-snapshot, got ${mode}`);
const meta = readValidMeta();
if (!meta) throw new Error("cold-open cache missing; run the build first");
const paint = await loadJsdomEditor();

const t0 = performance.now();
const storage = new SqliteStorageAdapter(STORE_PATH);
const repo = new Repo({ storage, network: [], peerId: "bench-open" as PeerId });
let readMs = Number.NaN;
let firstPaintMs: number;
let readyMs: number;
let snapshotCurrent: boolean | null = null;
let lines: number;
if (mode === "snapshot") {
  const snapshot = readSnapshot(storage.db, meta.documentId);
  if (!snapshot) throw new Error("no snapshot row for the cached document");
  readMs = performance.now() - t0;
  const editor = paint(snapshot.text, false);
  firstPaintMs = performance.now() - t0;
  const handle = await repo.find<{ text: string }>(meta.url as AutomergeUrl);
  readyMs = performance.now() - t0;
  snapshotCurrent = snapshotIsCurrent(snapshot, A.getHeads(handle.doc()));
  editor.makeEditable(snapshotCurrent ? undefined : handle.doc().text);
  lines = editor.lineCount();
} else {
  const handle = await repo.find<{ text: string }>(meta.url as AutomergeUrl);
  readyMs = performance.now() - t0;
  const editor = paint(handle.doc().text, true);
  firstPaintMs = performance.now() - t0;
  lines = editor.lineCount();
}
const editableMs = performance.now() - t0;
await repo.shutdown();
storage.close();
announceResult({ mode, readMs, firstPaintMs, readyMs, editableMs, snapshotCurrent, lines });
