/**
 * Reading plans for the UI and MCP: one plan's detail and body, the document list with its search, and the two
 * cold-open reads a window makes before (or instead of) loading a document. What must stay true: a read never writes
 * except the one-time schema migration inside readPlan; the list and the cold-open reads load no Automerge document
 * (titles come from the index, bodies from the text snapshots in SQLite, saved bytes straight from storage).
 */
import { ChopinError } from "../../shared/errors.js";
import type { Database } from "better-sqlite3";
import type { DocHandle } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { DocumentDetail, DocumentSnapshot, DocumentSummary, ListDocumentsQuery } from "../../shared/api.js";
import { MAX_LIST_DOCUMENTS, MAX_SAVED_DOCUMENT_BYTES } from "../util/limits.js";
import { checkQuery } from "./bounds.js";
import { foldForSearch, holdsAllWords, searchWords } from "../../shared/search-fold.js";
import { toUrlHeads } from "./heads.js";
import type { PlanAccess } from "./plan-access.js";
import { byRecency, findBodyMatches } from "./search.js";
import { readSnapshot } from "./snapshot-store.js";

export interface DocumentContent {
  detail: DocumentDetail;
  markdown: string;
}

export async function getDocument(access: PlanAccess, id: string): Promise<DocumentDetail> {
  const { handle, plan } = await access.load(id);
  return access.detailOf(handle, plan);
}

/** Detail plus the Markdown body (what MCP read_document returns). */
export async function getContent(access: PlanAccess, id: string): Promise<DocumentContent> {
  const { handle, plan } = await access.load(id);
  return { detail: access.detailOf(handle, plan), markdown: plan.text };
}

export function listDocuments(access: PlanAccess, db: Database, input?: ListDocumentsQuery): DocumentSummary[] {
  // Its shape was checked at the API's boundary (shared/api-arguments.ts); its words are checked here.
  const query = input ?? {};
  const words = searchWords(checkQuery(query.query));
  const archived = query.archived === true;
  const out: DocumentSummary[] = [];
  const bodyOnly: DocumentSummary[] = [];
  for (const [id, { entry, shared }] of access.indexes.list()) {
    if ((entry.archivedAt !== null) !== archived) continue;
    // An agent chat's own plan is listed under Agents (main/agent-chat/), never among plans, nor searched.
    if (entry.agentChat) continue;
    // A teammate's plan listed before its content reached this device: the window says it is on its way.
    const summary: DocumentSummary = { id, ...entry, shared, ...(shared && access.arriving(id) ? { arriving: true as const } : {}) };
    // Titles come from the index (always current); bodies from the text snapshots (search.ts).
    if (words.length > 0 && !holdsAllWords(foldForSearch(entry.title), words)) bodyOnly.push(summary);
    else out.push(summary);
  }
  if (words.length > 0) out.push(...findBodyMatches(db, words, bodyOnly));
  out.sort(byRecency);
  return out.slice(0, MAX_LIST_DOCUMENTS);
}

/**
 * The stored text snapshot, without loading the document; when none is stored yet (a plan made moments ago: the
 * snapshot writer runs at most every SNAPSHOT_INTERVAL_MS) but the core holds the plan loaded, its text now, so a
 * window can start writing at once. Null otherwise. A malformed id is refused with 'invalid-input'; an unknown one is
 * simply null.
 */
export function openSnapshot(access: PlanAccess, db: Database, id: string): DocumentSnapshot | null {
  const documentId = access.parseId(id);
  const row = readSnapshot(db, documentId);
  if (row) return { id: documentId, title: row.title, markdown: row.text, heads: toUrlHeads(row.heads) };
  if (access.indexes.isIndex(documentId) || !access.indexes.knows(documentId)) return null;
  const handle = access.repo.handles[documentId as never] as DocHandle<PlanDocument> | undefined;
  if (!handle?.isReady()) return null;
  const doc = handle.doc();
  if (typeof doc?.text !== "string") return null;
  return { id: documentId, title: typeof doc.title === "string" ? doc.title : "", markdown: doc.text, heads: handle.heads() };
}

/**
 * The plan's stored Automerge chunks, concatenated and base64-encoded, read without loading the document; null for
 * ids this device does not list, for nothing stored yet, and above MAX_SAVED_DOCUMENT_BYTES; 'storage-failure' for a
 * plan whose stored copy already failed to load in the core. Loading them gives a
 * replica the stored state at once; anything newer still arrives through sync.
 */
export async function readSavedDocument(access: PlanAccess, id: string): Promise<string | null> {
  const documentId = access.parseId(id);
  if (access.indexes.isIndex(documentId) || !access.indexes.knows(documentId)) return null;
  // Bytes the core could not load would only fail again in the window.
  access.refuseIfDamaged(documentId);
  const bytes = await access.repo.storageSubsystem?.loadDocData(documentId);
  if (!bytes || bytes.byteLength === 0 || bytes.byteLength > MAX_SAVED_DOCUMENT_BYTES) return null;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
