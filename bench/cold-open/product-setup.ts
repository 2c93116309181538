/**
 * Child process: prepares a host-mode data folder holding the paper-trace document, written by PRODUCT code: the
 * core's local database, its Repo on the SQLite storage adapter, and DocumentService.importDocument (so the
 * document is a plan in the local index and its text snapshot comes from the service's snapshot writer).
 * Usage: product-setup.ts <dataDir>. Announces { documentId, title, textLength, snapshotRow }.
 */
import { readFileSync, rmSync } from "node:fs";
import { next as A } from "@automerge/automerge";
import { Repo, type PeerId } from "@automerge/automerge-repo";
import type { ChopinEvents } from "../../shared/api.js";
import { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import { ClosableStorage } from "../../shared/closable-storage.js";
import { TypedEmitter } from "../../main/util/typed-emitter.js";
import { DocumentService } from "../../main/documents/document-service.js";
import { readSnapshot } from "../../main/documents/snapshot-store.js";
import { openLocalDb } from "../../main/store/local-db.js";
import { announceResult } from "../lib/child.js";
import { DOC_BYTES_PATH } from "./cache.js";

export const PRODUCT_DOC_TITLE = "Paper trace";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: product-setup.ts <dataDir>");
rmSync(dataDir, { recursive: true, force: true });

// The trace document is { text } only; a title makes it a v0 draft, which the import migrates into a plan.
const traced = A.load<{ text: string; title?: string }>(readFileSync(DOC_BYTES_PATH));
const titled = A.save(A.change(traced, (d) => void (d.title = PRODUCT_DOC_TITLE)));

const db = openLocalDb(dataDir);
const storage = new ClosableStorage(new SqliteStorageAdapter(db));
const repo = new Repo({ storage, network: [], peerId: "bench-setup" as PeerId });
const service = await DocumentService.open({ repo, db, events: new TypedEmitter<ChopinEvents>(), displayName: () => "Bench" });
const detail = await service.importDocument(titled);
// close() writes the pending snapshot through the service's writer.
service.close();
await repo.flush();
const row = readSnapshot(db, detail.id);
await repo.shutdown();
storage.close();
db.close();
if (!row || row.text !== traced.text) throw new Error("the product did not write the trace's text snapshot");
announceResult({ documentId: detail.id, title: detail.title, textLength: row.text.length, snapshotHeads: row.heads.length });
