/**
 * The GitHub half of ChopinApi: sign-in state and the repository picker from GitHubSession, and binding a document
 * through DocumentService. What must stay true: a binding is written only from what GitHub listed for the signed-in
 * person right now (node id authoritative, owner/name and default branch as GitHub reports them); unbinding needs no
 * sign-in, and neither does anything else a document does. Refreshing follows the recorded numeric repository id and
 * rewrites only owner/name/default branch, only while the document is still bound to that same node id.
 */
import type { GitHubApi } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import { ChopinError } from "../../shared/errors.js";
import type { DocumentService } from "../documents/document-service.js";
import type { GitHubSession } from "./github-session.js";

export type { GitHubApi } from "../../shared/api.js";

export function createGitHubApi(session: GitHubSession, documents: Pick<DocumentService, "setRepository" | "getDocument">): GitHubApi {
  return checkedApi<GitHubApi>({
    getAuthState: async () => session.state(),
    startSignIn: (options) => session.startSignIn(options),
    cancelSignIn: () => session.cancelSignIn(),
    signOut: () => session.signOut(),
    listInstallations: () => session.listInstallations(),
    listInstallationRepositories: (installationId) => session.listInstallationRepositories(installationId),
    bindRepository: async (id, choice) => {
      // Refuse an unknown or archived document before asking GitHub anything.
      const doc = await documents.getDocument(id);
      if (doc.archivedAt !== null) throw new ChopinError("document-archived", "This document is archived; restore it to bind a repository.");
      const binding = await session.resolveRepository(choice);
      return documents.setRepository(id, {
        owner: binding.owner,
        name: binding.name,
        nodeId: binding.nodeId,
        defaultBranch: binding.defaultBranch,
        repositoryId: binding.id,
        installationId: binding.installationId,
      });
    },
    unbindRepository: (id) => documents.setRepository(id, null),
    refreshRepositoryBinding: async (id) => {
      session.assertSignedIn();
      const doc = await documents.getDocument(id);
      const bound = doc.repository;
      // Owner/name-only bindings (e.g. from MCP) have nothing to follow; archived documents are not written.
      if (!bound?.nodeId || bound.repositoryId === undefined || bound.installationId === undefined || doc.archivedAt !== null) return doc;
      const now = await session.followRepository({
        nodeId: bound.nodeId,
        id: bound.repositoryId,
        installationId: bound.installationId,
        owner: bound.owner,
        name: bound.name,
        defaultBranch: bound.defaultBranch ?? "",
      });
      // The document may have been rebound or unbound while GitHub answered: write only over the binding we followed.
      const latest = await documents.getDocument(id);
      if (latest.repository?.nodeId !== bound.nodeId || latest.repository.repositoryId !== bound.repositoryId) return latest;
      return documents.setRepository(id, { ...latest.repository, owner: now.owner, name: now.name, defaultBranch: now.defaultBranch });
    },
  });
}
