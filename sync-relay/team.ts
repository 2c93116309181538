/**
 * The relay's one team and its workspace-index document (scope "team"), created by the relay on its first start so
 * every member's app finds the same index. Its id lives in relay_meta; the document itself lives in Automerge storage.
 *
 * What must stay true: the id is recorded only after the document is flushed, so a crash in between leaves no id
 * pointing at nothing (the next start just creates another).
 */
import type Database from "better-sqlite3";
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import { WORKSPACE_INDEX_SCHEMA_VERSION, workspaceIndexSchema, type WorkspaceIndex } from "../shared/schema/workspace-index.js";
import { readMeta, writeMeta } from "./relay-db.js";

const TEAM_INDEX_KEY = "team_index_document_id";

export async function ensureTeamIndex(db: Database.Database, repo: Repo): Promise<DocumentId> {
  const existing = readMeta(db, TEAM_INDEX_KEY);
  if (existing) return existing as DocumentId;
  const initial: WorkspaceIndex = workspaceIndexSchema.parse({
    schemaVersion: WORKSPACE_INDEX_SCHEMA_VERSION,
    kind: "workspace-index",
    scope: "team",
    documents: {},
  });
  const handle = repo.create<WorkspaceIndex>(initial);
  await repo.flush([handle.documentId]);
  writeMeta(db, TEAM_INDEX_KEY, handle.documentId);
  return handle.documentId;
}
