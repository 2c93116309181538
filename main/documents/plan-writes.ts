/**
 * A plan's own edits: create, rename, archive and restore, delete, and MCP's full-body update. What must stay true:
 * every write validates its input first and (except archive/restore/delete, which act on archived plans) refuses an
 * archived plan; text is written with updateTextBounded (shared/text-update.ts: unchanged lines untouched, small hunks
 * diffed by character, cost near-linear however different the body) so concurrent edits merge; archive and restore are
 * idempotent; only an archived plan can be deleted, unless its stored copy cannot be read (damaged-removal.ts). `by` names the coding agent asking (its change is credited to it
 * in the history); absent, the change is the person's at this device.
 */
import type { CreateDocumentInput, DocumentDetail, DocumentSummary } from "../../shared/api.js";
import { isRevision } from "./heads.js";
import { ChopinError } from "../../shared/errors.js";
import type { Brief, CreatedVia, PlanDocument, Provenance, RepositoryBinding } from "../../shared/schema/plan-document.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION } from "../../shared/schema/plan-document.js";
import { checkMarkdown, normalizeNewTitle, normalizeTitle } from "./bounds.js";
import type { AgentAuthor } from "./change-messages.js";
import { isDamagedRefusal, removeDamagedPlan, type SetAsideChunks } from "./damaged-removal.js";
import type { LoadedPlan, PlanAccess } from "./plan-access.js";
import { readPlan, revisionOfHandle } from "./plan-reader.js";
import { utf8Bytes } from "../../shared/utf8.js";
import { updateTextBounded } from "../../shared/text-update.js";
import { writeTitle } from "./title-write.js";

/** Everything a new document can carry; the app passes title/markdown/shared, MCP the rest too. */
export interface NewDocumentInput extends CreateDocumentInput {
  createdVia?: CreatedVia;
  repository?: RepositoryBinding | null;
  provenance?: Provenance | null;
  brief?: Brief | null;
}

/** `defaultShared` applies when the input does not say. */
export function createDocument(access: PlanAccess, input: NewDocumentInput, defaultShared: boolean, by?: AgentAuthor): DocumentDetail {
  const title = normalizeNewTitle(input.title);
  const markdown = input.markdown === undefined ? "" : checkMarkdown(input.markdown);
  if (input.shared !== undefined && typeof input.shared !== "boolean") {
    throw new ChopinError("invalid-input", "shared must be true or false.");
  }
  const shared = input.shared ?? defaultShared;
  const now = access.now();
  const handle = access.repo.create<PlanDocument>();
  access.track(handle);
  access.change(handle, (doc) => {
    const init: PlanDocument = {
      schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION,
      kind: "plan",
      title,
      text: markdown,
      repository: input.repository ?? null,
      createdVia: input.createdVia ?? "app",
      provenance: input.provenance ?? null,
      brief: input.brief ?? null,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
      authors: {},
    };
    Object.assign(doc, init);
  }, by);
  const plan = readPlan(handle);
  access.enterNew(handle, plan, shared);
  access.changed.add([handle.documentId]);
  return access.detailOf(handle, plan);
}

export async function renameDocument(access: PlanAccess, id: string, title: string, by?: AgentAuthor): Promise<DocumentSummary> {
  const next = normalizeTitle(title);
  const { handle, plan } = await access.loadWritable(id);
  if (plan.title !== next) {
    access.change(handle, (doc) => {
      writeTitle(doc, next);
      doc.updatedAt = access.now();
    }, by);
  }
  return access.summaryOf(handle);
}

/** Idempotent: archiving an archived document changes nothing. */
export async function archiveDocument(access: PlanAccess, id: string, by?: AgentAuthor): Promise<DocumentSummary> {
  const { handle, plan } = await access.load(id);
  if (plan.archivedAt === null) access.change(handle, (doc) => void (doc.archivedAt = access.now()), by);
  return access.summaryOf(handle);
}

/** Idempotent: restoring a live document changes nothing. */
export async function restoreDocument(access: PlanAccess, id: string, by?: AgentAuthor): Promise<DocumentSummary> {
  const { handle, plan } = await access.load(id);
  if (plan.archivedAt !== null) access.change(handle, (doc) => void (doc.archivedAt = null), by);
  return access.summaryOf(handle);
}

/**
 * Only an archived document can be deleted; it leaves both indexes and this device's storage. `beforeLeaving` runs
 * once the delete is certain, while the document is still indexed and synced (the core says its windows' goodbyes).
 * A plan whose stored copy cannot be read cannot be archived: with `setAside` (which keeps its bytes) it is removed
 * as it is (damaged-removal.ts); without, it stays refused as 'storage-failure'.
 */
export async function deleteDocument(
  access: PlanAccess,
  id: string,
  beforeLeaving?: (documentId: string) => Promise<void>,
  setAside?: SetAsideChunks,
): Promise<void> {
  let loaded: LoadedPlan;
  try {
    loaded = await access.load(id);
  } catch (error) {
    const documentId = access.parseId(id);
    if (setAside && isDamagedRefusal(access, documentId, error)) return removeDamagedPlan(access, documentId, setAside, beforeLeaving);
    throw error;
  }
  const { handle, plan } = loaded;
  if (plan.archivedAt === null) {
    throw new ChopinError("document-not-archived", "Archive the document before deleting it.");
  }
  // A disk that cannot take the plan's last edits refuses the delete here, while nothing is changed: once the plan
  // left the indexes, a failing flush below left it half deleted (in no list, still stored, never saved again).
  await access.repo.flush([handle.documentId]);
  await beforeLeaving?.(handle.documentId);
  await removeFromDevice(access, handle);
}

/**
 * Takes a plan off this device: its records first, whole (refused, 'storage-failure', it stays listed as it was), then
 * the indexes, its handle and its stored chunks. The caller has flushed it and said any goodbyes.
 */
export async function removeFromDevice(access: PlanAccess, handle: LoadedPlan["handle"]): Promise<void> {
  access.indexes.remove(handle.documentId);
  access.snapshots.forget(handle.documentId);
  // automerge-repo 2.5.6's delete() removes nothing from storage: the Repo's save listener stored the handle's emptied
  // document instead, which compacted the text away but left an empty chunk per deleted plan for good (resource
  // audit: 1,000 deletes, 1,000 chunks). So the save listener goes first (a save already queued carries the heads the
  // flush stores, so it is skipped), then the chunks, sync states included. The plan has left the lists by now, so a
  // disk that filled since the flush above does not stop the delete halfway: a queued save fails on it the same way.
  handle.removeAllListeners("heads-changed");
  await access.repo.flush([handle.documentId]).catch(() => undefined);
  access.repo.delete(handle.documentId);
  access.forgetUse(handle.documentId);
  access.changed.add([handle.documentId]);
  await access.repo.storageSubsystem?.removeDoc(handle.documentId);
}

/**
 * MCP's full-body update: refuses a stale revision (details.revision = current) and archived documents, then
 * applies the Markdown as a bounded text diff (A.updateText's whole-text character diff took over 30 s on a 100 KB
 * rewrite) so a person's concurrent edits on other lines merge.
 */
export async function updateMarkdown(
  access: PlanAccess,
  id: string,
  expectedRevision: string,
  markdown: string,
  by?: AgentAuthor,
): Promise<DocumentDetail> {
  // Checked (size aside) before anything is loaded: bad input is refused without touching the document.
  checkMarkdown(markdown, Number.MAX_SAFE_INTEGER);
  // Garbage is not a stale revision: say so instead of sending the caller to read and retry.
  if (!isRevision(expectedRevision)) {
    throw new ChopinError("invalid-input", "That is not a revision: pass the revision read_document (or the last update) returned.");
  }
  const { handle, plan } = await access.loadWritable(id);
  const current = revisionOfHandle(handle);
  if (current !== expectedRevision) {
    throw new ChopinError("revision-conflict", "The document changed since that revision; read it again.", {
      revision: current,
    });
  }
  // A body no larger than the document is now always fits, even above the limit (concurrent edits can pass it).
  const body = checkMarkdown(markdown, utf8Bytes(plan.text));
  // The same body changes nothing: no empty change in the history, and the revision stays the one the caller holds.
  if (body === plan.text) return access.detailOf(handle);
  access.change(handle, (doc) => {
    updateTextBounded(doc, ["text"], body);
    doc.updatedAt = access.now();
  }, by);
  return access.detailOf(handle);
}
