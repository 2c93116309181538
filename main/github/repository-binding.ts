/**
 * Binding a document to one GitHub repository chosen from the signed-in user's App installations. The repository's
 * node ID is authoritative; owner/name and the default branch are a cache refreshed by following the numeric id
 * (GET /repositories/{id}), which survives renames and transfers. A repository whose id now answers with a different
 * node ID is not ours: following refuses rather than silently rebinding.
 */
import { ChopinError } from "../../shared/errors.js";
import { MAX_REPOSITORY_NAME_CHARS, MAX_REPOSITORY_OWNER_CHARS } from "../../shared/limits.js";
import { GITHUB_MAX_PAGE_SIZE, MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED, MAX_GITHUB_INSTALLATIONS_LISTED } from "../util/limits.js";
import { firstItems, type GitHubRest } from "./rest-client.js";

export interface RepositoryBinding {
  /** GitHub's global node ID: the identity of the binding. */
  nodeId: string;
  /** Numeric id, used to follow renames and transfers. */
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  /** The App installation the repository was chosen through. */
  installationId: number;
}

export interface InstallationSummary {
  id: number;
  account: string;
  accountType: string;
}

export interface RepositorySummary {
  id: number;
  nodeId: string;
  owner: string;
  name: string;
  defaultBranch: string;
  private: boolean;
}

/** The commit the default branch pointed at when a session began; every repository read goes through it. */
export interface SessionPin {
  commitSha: string;
}

interface RepoJson {
  id: number;
  node_id: string;
  name: string;
  owner: { login: string };
  default_branch: string;
  private: boolean;
}

function summary(r: RepoJson): RepositorySummary {
  return { id: r.id, nodeId: r.node_id, owner: r.owner.login, name: r.name, defaultBranch: r.default_branch, private: r.private };
}

export async function listInstallations(rest: GitHubRest): Promise<InstallationSummary[]> {
  const { octokit } = rest;
  const pages = octokit.paginate.iterator(octokit.rest.apps.listInstallationsForAuthenticatedUser, { per_page: GITHUB_MAX_PAGE_SIZE });
  const installations = await firstItems(pages, MAX_GITHUB_INSTALLATIONS_LISTED);
  return installations.map((i) => {
    const account = i.account && "login" in i.account ? { login: i.account.login, type: i.account.type } : { login: i.account?.slug ?? "", type: "Enterprise" };
    return { id: i.id, account: account.login, accountType: account.type };
  });
}

export async function listInstallationRepositories(rest: GitHubRest, installationId: number): Promise<RepositorySummary[]> {
  const { octokit } = rest;
  const pages = octokit.paginate.iterator(octokit.rest.apps.listInstallationReposForAuthenticatedUser, {
    installation_id: installationId,
    per_page: GITHUB_MAX_PAGE_SIZE,
  });
  return (await firstItems(pages, MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED)).map(summary);
}

/** Makes a binding from a listed repository; shape checks guard what later becomes part of request paths. */
export function bindRepository(installationId: number, repo: RepositorySummary): RepositoryBinding {
  const ownerOk = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(repo.owner) && repo.owner.length <= MAX_REPOSITORY_OWNER_CHARS;
  const nameOk = /^[A-Za-z0-9._-]+$/.test(repo.name) && repo.name !== "." && repo.name !== ".." && repo.name.length <= MAX_REPOSITORY_NAME_CHARS;
  if (!ownerOk || !nameOk || !repo.nodeId || !Number.isSafeInteger(repo.id) || !repo.defaultBranch) {
    throw new ChopinError("invalid-input", "That repository cannot be bound: GitHub described it in an unexpected shape.");
  }
  return { nodeId: repo.nodeId, id: repo.id, owner: repo.owner, name: repo.name, defaultBranch: repo.defaultBranch, installationId };
}

/** Refreshes owner/name/default branch by id; refuses when the id now names a different repository. */
export async function followBinding(rest: GitHubRest, binding: RepositoryBinding): Promise<RepositoryBinding> {
  // Not in GitHub's published description, but GitHub's own way to reach a repository by id across renames.
  const { data } = await rest.octokit.request("GET /repositories/{id}", { id: binding.id });
  const r = summary(data as RepoJson);
  if (r.nodeId !== binding.nodeId) {
    throw new ChopinError("not-found", "The bound repository no longer exists under its recorded identity.", { nodeId: binding.nodeId });
  }
  return bindRepository(binding.installationId, r);
}

/** Captures the session pin: the default branch's head commit right now. */
export async function captureSessionPin(rest: GitHubRest, binding: RepositoryBinding): Promise<SessionPin> {
  const { data: b } = await rest.octokit.rest.repos.getBranch({ owner: binding.owner, repo: binding.name, branch: binding.defaultBranch });
  if (!/^[0-9a-f]{40}$/.test(b.commit?.sha ?? "")) throw new ChopinError("internal", "GitHub returned no commit for the default branch.");
  return { commitSha: b.commit.sha };
}

/** `/repos/{owner}/{name}{suffix}` with both parts encoded; owner and name only ever come from a binding. */
export function repoPath(binding: RepositoryBinding, suffix = ""): string {
  return `/repos/${encodeURIComponent(binding.owner)}/${encodeURIComponent(binding.name)}${suffix}`;
}
