/**
 * Migration path for synced documents. A document written by an older app carries an older schemaVersion (or none,
 * for version 0 drafts); `migratePlanDocument` lifts it step by step to the current version inside a change, so every
 * replica converges on the same shape. A document from a NEWER app is never downgraded: readers refuse to write it.
 */
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

/** Upgrades in place. Call inside `handle.change`. Throws on a document from a newer schema. */
export function migratePlanDocument(doc: Mutable): void {
  let version = planSchemaVersionOf(doc);
  if (version > PLAN_DOCUMENT_SCHEMA_VERSION) {
    throw new Error(`plan document schema ${version} is newer than this app (${PLAN_DOCUMENT_SCHEMA_VERSION})`);
  }
  while (version < PLAN_DOCUMENT_SCHEMA_VERSION) {
    const step = PLAN_STEPS[version];
    if (!step) throw new Error(`no migration from plan document schema ${version}`);
    step(doc);
    version += 1;
    doc.schemaVersion = version;
  }
}

export function migrateWorkspaceIndex(doc: Mutable): void {
  const version = typeof doc.schemaVersion === "number" ? doc.schemaVersion : 0;
  if (version > WORKSPACE_INDEX_SCHEMA_VERSION) {
    throw new Error(`workspace index schema ${version} is newer than this app (${WORKSPACE_INDEX_SCHEMA_VERSION})`);
  }
  if (version === 0) {
    doc.kind = "workspace-index";
    doc.documents ??= {};
    doc.scope ??= "local";
    doc.schemaVersion = WORKSPACE_INDEX_SCHEMA_VERSION;
  }
}
