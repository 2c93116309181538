/**
 * Reading and writing workspace index documents (local and team). Entries cache what a list needs (title, dates,
 * archived) so listing never loads every plan. Writes happen only when a value actually differs, so two devices
 * refreshing the same entry converge instead of ping-ponging changes.
 */
import type { DocHandle } from "@automerge/automerge-repo";
import { next as A } from "@automerge/automerge";
import { indexEntrySchema, type IndexEntry, type WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { migrateWorkspaceIndex } from "../../shared/schema/migrations.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";

export type IndexHandle = DocHandle<WorkspaceIndex>;

export function newIndex(scope: "local" | "team"): WorkspaceIndex {
  return { schemaVersion: 1, kind: "workspace-index", scope, documents: {} };
}

export function entryOf(plan: PlanDocument): IndexEntry {
  return {
    title: plan.title,
    createdVia: plan.createdVia,
    archivedAt: plan.archivedAt,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    ...(plan.agentChat ? { agentChat: { agentId: plan.agentChat.agentId, person: plan.agentChat.person } } : {}),
  };
}

/** Valid entries only: a damaged entry from a peer is skipped, never thrown at the caller. */
export function readEntries(handle: IndexHandle): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>();
  const documents = (handle.doc() as Partial<WorkspaceIndex> | undefined)?.documents;
  if (!documents || typeof documents !== "object") return entries;
  for (const [id, value] of Object.entries(documents)) {
    const parsed = indexEntrySchema.safeParse(value);
    if (parsed.success) entries.set(id, parsed.data);
  }
  return entries;
}

export function hasEntry(handle: IndexHandle, id: string): boolean {
  const documents = (handle.doc() as Partial<WorkspaceIndex> | undefined)?.documents;
  return !!documents && Object.prototype.hasOwnProperty.call(documents, id);
}

function sameEntry(a: unknown, b: IndexEntry): boolean {
  const parsed = indexEntrySchema.safeParse(a);
  if (!parsed.success) return false;
  const x = parsed.data;
  return (
    x.title === b.title &&
    x.createdVia === b.createdVia &&
    x.archivedAt === b.archivedAt &&
    x.createdAt === b.createdAt &&
    x.updatedAt === b.updatedAt &&
    x.agentChat?.agentId === b.agentChat?.agentId &&
    x.agentChat?.person === b.agentChat?.person
  );
}

/** Inserts or refreshes an entry; returns whether a change was made. */
export function upsertEntry(handle: IndexHandle, id: string, entry: IndexEntry): boolean {
  const current = (handle.doc() as Partial<WorkspaceIndex> | undefined)?.documents?.[id];
  if (current !== undefined && sameEntry(current, entry)) return false;
  handle.change((doc) => {
    if (!doc.documents) doc.documents = {};
    const existing = doc.documents[id];
    // The title as a scalar, never collaborative text (workspace-index schema, storedTitle).
    const title = new A.RawString(entry.title) as unknown as string;
    if (!existing) {
      doc.documents[id] = { ...entry, title };
      return;
    }
    // Field-wise writes keep concurrent edits of different fields by different devices.
    if (String(existing.title) !== entry.title) existing.title = title;
    if (existing.createdVia !== entry.createdVia) existing.createdVia = entry.createdVia;
    if (existing.archivedAt !== entry.archivedAt) existing.archivedAt = entry.archivedAt;
    if (existing.createdAt !== entry.createdAt) existing.createdAt = entry.createdAt;
    if (existing.updatedAt !== entry.updatedAt) existing.updatedAt = entry.updatedAt;
    // A chat plan's mark never changes once made: copied where an entry lacks it, never removed.
    if (entry.agentChat && existing.agentChat === undefined) existing.agentChat = { ...entry.agentChat };
  });
  return true;
}

export function removeEntry(handle: IndexHandle, id: string): boolean {
  if (!hasEntry(handle, id)) return false;
  handle.change((doc) => {
    delete doc.documents[id];
  });
  return true;
}

/** Lifts an older index in place. A current one is left alone (no change, so no conflicting writes between peers). */
export function ensureIndexShape(handle: IndexHandle): void {
  const doc = handle.doc() as unknown as Record<string, unknown>;
  if (doc.schemaVersion === 1 && doc.kind === "workspace-index" && doc.documents && typeof doc.documents === "object") {
    return;
  }
  handle.change((d) => migrateWorkspaceIndex(d as unknown as Record<string, unknown>));
}

/** Document ids touched by index patches (path ["documents", id, ...]); a whole-map replacement touches all. */
export function idsFromIndexPatches(patches: readonly A.Patch[], handle: IndexHandle): string[] {
  const ids = new Set<string>();
  for (const patch of patches) {
    if (patch.path[0] !== "documents") continue;
    if (patch.path.length >= 2) ids.add(String(patch.path[1]));
    else for (const id of readEntries(handle).keys()) ids.add(id);
  }
  return [...ids];
}
