/**
 * Reads a plan document the way every caller must: migrate an older schema (inside a change, so replicas converge),
 * refuse a newer one, then validate with zod. Nothing downstream touches an unvalidated document.
 */
import { next as A } from "@automerge/automerge";
import { stringifyAutomergeUrl, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { ChopinError } from "../../shared/errors.js";
import type { DocumentDetail, DocumentSummary } from "../../shared/api.js";
import { canMigratePlan, migratePlanDocument, planNeedsMigration } from "../../shared/schema/migrations.js";
import { planDocumentSchema, type PlanDocument } from "../../shared/schema/plan-document.js";
import { revisionOf } from "./heads.js";

export type PlanHandle = DocHandle<PlanDocument>;
type Loose = Record<string, unknown>;

/** True for a document that is (or can be migrated into) a plan; index documents and others are not. */
export function looksLikePlan(doc: unknown): boolean {
  if (!doc || typeof doc !== "object") return false;
  const loose = doc as Loose;
  if (loose.kind === "plan") return true;
  // A v0 draft: no kind, no schemaVersion, but a title and a body. Anything else is some other kind of document.
  return (
    loose.kind === undefined &&
    loose.schemaVersion === undefined &&
    typeof loose.title === "string" &&
    (typeof loose.body === "string" || typeof loose.text === "string")
  );
}

/** Validated current contents of a plan handle; migrates an older schema first. */
export function readPlan(handle: PlanHandle): PlanDocument {
  const raw = handle.doc() as unknown as Loose;
  if (!looksLikePlan(raw)) throw new ChopinError("not-found", "That id is not a plan document.");
  if (!canMigratePlan(raw)) {
    throw new ChopinError("invalid-document", "This document was written by a newer version of Chopin. Update to open it.");
  }
  if (planNeedsMigration(raw)) handle.change((doc) => migratePlanDocument(doc as unknown as Loose));
  return parsePlan(handle.doc());
}

/** Validates a plan value (current schema) or refuses with 'invalid-document'. */
export function parsePlan(value: unknown): PlanDocument {
  const parsed = planDocumentSchema.safeParse(value);
  if (!parsed.success) {
    throw new ChopinError("invalid-document", "This document is damaged or not a Chopin plan.", {
      issues: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    });
  }
  return parsed.data;
}

export function revisionOfHandle(handle: PlanHandle): string {
  return revisionOf(A.getHeads(handle.doc()));
}

export function toSummary(id: DocumentId, plan: PlanDocument, shared: boolean): DocumentSummary {
  return {
    id,
    title: plan.title,
    createdVia: plan.createdVia,
    archivedAt: plan.archivedAt,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    shared,
  };
}

export function toDetail(handle: PlanHandle, plan: PlanDocument, shared: boolean): DocumentDetail {
  return {
    ...toSummary(handle.documentId, plan, shared),
    url: stringifyAutomergeUrl({ documentId: handle.documentId }),
    repository: plan.repository,
    provenance: plan.provenance,
    brief: plan.brief,
    revision: revisionOfHandle(handle),
    ...(plan.agentChat ? { agentChat: { agentId: plan.agentChat.agentId, person: plan.agentChat.person } } : {}),
  };
}
