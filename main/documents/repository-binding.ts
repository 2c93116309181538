/**
 * Binding a plan to a repository (or unbinding it). What must stay true: the binding is validated against the
 * schema before it is written, so a damaged value can never make the document unreadable; archived documents refuse;
 * writing the binding it already has is no change at all.
 */
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { repositoryBindingSchema, type RepositoryBinding } from "../../shared/schema/plan-document.js";
import type { PlanAccess } from "./plan-access.js";

/** The binding as it will be written, or null to unbind; refuses anything else with 'invalid-input'. */
export function checkRepositoryBinding(binding: unknown): RepositoryBinding | null {
  if (binding === null) return null;
  const parsed = repositoryBindingSchema.safeParse(binding);
  if (!parsed.success) throw new ChopinError("invalid-input", "That is not a repository Chopin can bind to.");
  // Automerge refuses undefined values: optional fields are written only when present.
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as RepositoryBinding;
}

export async function setRepository(access: PlanAccess, id: string, binding: RepositoryBinding | null): Promise<DocumentDetail> {
  const next = checkRepositoryBinding(binding);
  const { handle, plan } = await access.loadWritable(id);
  if (JSON.stringify(plan.repository) !== JSON.stringify(next)) {
    access.change(handle, (doc) => {
      doc.repository = next === null ? null : { ...next };
      doc.updatedAt = access.now();
    });
    access.changed.add([handle.documentId]);
  }
  return access.detailOf(handle);
}
