/**
 * Migration path for synced documents. A document written by an older app carries an older schemaVersion (or none,
 * for version 0 drafts); `migratePlanDocument` lifts it step by step to the current version inside a change, so every
 * replica converges on the same shape. A document from a NEWER app is never downgraded: readers refuse to write it.
 *
 * What must stay true: every refusal is a ChopinError "invalid-document" thrown before the first write, so inside a
 * change it rolls back whole and a caller shows the person one typed sentence; a current document is left untouched.
 */
import { ChopinError } from "../errors.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION } from "./plan-document.js";
import { WORKSPACE_INDEX_SCHEMA_VERSION } from "./workspace-index.js";

type Mutable = Record<string, unknown>;

/** Steps keyed by the version they upgrade FROM. Each mutates the Automerge proxy in place. */
const PLAN_STEPS: Record<number, (doc: Mutable) => void> = {
  // v0: early drafts had `body` instead of `text` and no provenance fields.
  0: (doc) => {
    if (typeof doc.text !== "string") doc.text = typeof doc.body === "string" ? doc.body : "";
    delete doc.body;
    doc.kind = "plan";
    if (typeof doc.title !== "string") doc.title = "";
    doc.repository ??= null;
    doc.createdVia ??= "app";
    doc.provenance ??= null;
    doc.brief ??= null;
    doc.archivedAt ??= null;
    const now = typeof doc.createdAt === "number" ? doc.createdAt : 0;
    doc.createdAt ??= now;
    doc.updatedAt ??= now;
    doc.authors ??= {};
  },
};

export function planSchemaVersionOf(doc: Mutable): number {
  return typeof doc.schemaVersion === "number" ? doc.schemaVersion : 0;
}

/** True when this app can read and write the document (possibly after migrating it). */
export function canMigratePlan(doc: Mutable): boolean {
  return planSchemaVersionOf(doc) <= PLAN_DOCUMENT_SCHEMA_VERSION;
}

/** Whether `migratePlanDocument` would change anything; lets callers skip an empty change. */
export function planNeedsMigration(doc: Mutable): boolean {
  return planSchemaVersionOf(doc) < PLAN_DOCUMENT_SCHEMA_VERSION;
}

/**
 * Upgrades in place. Call inside `handle.change`. Throws ChopinError "invalid-document" (changing nothing) on a
 * document from a newer schema or one that is not a document of this kind at all.
 */
export function migratePlanDocument(doc: Mutable): void {
  let version = checkedVersion(doc, "plan document", PLAN_DOCUMENT_SCHEMA_VERSION);
  while (version < PLAN_DOCUMENT_SCHEMA_VERSION) {
    const step = PLAN_STEPS[version];
    // A bug here, not in the document (a version bump without its step); inside a change the steps before roll back.
    if (!step) throw new ChopinError("internal", `Chopin has no migration from plan document schema ${version}.`);
    step(doc);
    version += 1;
    doc.schemaVersion = version;
  }
}

/** Upgrades a workspace index in place, like migratePlanDocument (same refusals). */
export function migrateWorkspaceIndex(doc: Mutable): void {
  const version = checkedVersion(doc, "workspace index", WORKSPACE_INDEX_SCHEMA_VERSION);
  if (version === 0) {
    doc.kind = "workspace-index";
    doc.documents ??= {};
    doc.scope ??= "local";
    doc.schemaVersion = WORKSPACE_INDEX_SCHEMA_VERSION;
  }
}

/** The document's schema version (0 when absent: a v0 draft), or the typed refusal of what cannot be migrated. */
function checkedVersion(doc: unknown, what: string, current: number): number {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new ChopinError("invalid-document", `This ${what} is damaged: it is not a map of fields.`);
  }
  const raw = (doc as Mutable).schemaVersion;
  if (raw === undefined) return 0;
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw < 0) {
    throw new ChopinError("invalid-document", `This ${what} is damaged: its schema version is not a whole number.`, {
      schemaVersion: String(raw),
    });
  }
  if (raw > current) {
    throw new ChopinError("invalid-document", `This ${what} was written by a newer version of Chopin. Update to open it.`, {
      schemaVersion: raw,
      supportedSchemaVersion: current,
    });
  }
  return raw;
}
