/**
 * automerge-repo's StorageSubsystem suite builds its storage with NodeFSStorageAdapter(folder). Run by
 * vitest.upstream.config.ts, it gets our SQLite storage adapter instead (one database file in that folder), so the
 * upstream suite pins our adapter's behaviour too.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SqliteStorageAdapter } from "../shared/node/sqlite-storage-adapter.js";

export class NodeFSStorageAdapter extends SqliteStorageAdapter {
  constructor(folder: string) {
    mkdirSync(folder, { recursive: true });
    super(join(folder, "chunks.sqlite"));
  }
}
