/**
 * A plan's repository binding as the permission facts can check it: one chosen through GitHub carries the node id,
 * the numeric id and the installation; one named by owner and name only (set over MCP) cannot be checked, and every
 * check that needs it refuses (fail closed), saying so.
 */
import type { RepositoryBinding } from "../github/repository-binding.js";
import type { RepositoryBinding as PlanRepository } from "../../shared/schema/plan-document.js";

export function checkableBinding(repository: PlanRepository): { binding: RepositoryBinding } | { refusal: string } {
  const { nodeId, repositoryId, installationId, owner, name, defaultBranch } = repository;
  if (!nodeId || repositoryId === undefined || installationId === undefined) {
    return { refusal: `This plan names ${owner}/${name} without it having been chosen through GitHub, so access to it cannot be checked: choose the repository again in the plan's settings.` };
  }
  return { binding: { nodeId, id: repositoryId, owner, name, defaultBranch: defaultBranch ?? "", installationId } };
}
