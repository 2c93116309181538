/**
 * The fake's control surface over HTTP (`/_fake/*`), so a test in another process (Playwright, or a sync-relay test
 * that may not import test-support/) can drive the same state an in-process test drives directly. Never subject to
 * injected failures.
 */
import type { FileChanges } from "./git-model.js";
import type { RepoPermission } from "./fixtures.js";
import type { FakeFailure, FakeGitHubState } from "./state.js";

export const CONTROL_PREFIX = "/_fake/";

type Body = Record<string, unknown>;

const actions: Record<string, (state: FakeGitHubState, b: Body, query: URLSearchParams) => unknown> = {
  inject: (s, b) => ({ id: s.inject(b.failure as FakeFailure, { pathPrefix: b.pathPrefix as string | undefined, times: b.times as number | undefined }).id }),
  "remove-failure": (s, b) => s.removeFailure(Number(b.id)),
  "clear-failures": (s) => s.clearFailures(),
  "approve-device": (s, b) => s.approveDevice(String(b.userCode), String(b.login)),
  "deny-device": (s, b) => s.denyDevice(String(b.userCode)),
  "expire-device": (s, b) => s.expireDevice(String(b.userCode)),
  devices: (s) => [...s.devices.values()].map((d) => ({ userCode: d.userCode, status: d.status })),
  membership: (s, b) => s.setMembership(String(b.login), String(b.org), (b.state as "active" | "pending" | null) ?? null),
  "revoke-token": (s, b) => s.revokeToken(String(b.token)),
  push: (s, b) => ({ sha: s.push(Number(b.repoId), String(b.branch), b.changes as FileChanges, String(b.message ?? "push")) }),
  rename: (s, b) => s.renameRepo(Number(b.repoId), String(b.owner), String(b.name)),
  collaborator: (s, b) => s.setCollaborator(Number(b.repoId), String(b.login), b.permission as RepoPermission),
  "installation-repositories": (s, b) => s.setInstallationRepositories(Number(b.installationId), b.repositoryIds as number[]),
  requests: (s, _b, q) => ({ count: s.countRequests(q.get("prefix") ?? "/") }),
};

/** Runs one control action; returns null when the name is unknown. */
export function runControl(state: FakeGitHubState, name: string, body: Body, query: URLSearchParams): { result: unknown } | null {
  const action = actions[name];
  if (!action) return null;
  return { result: action(state, body, query) ?? null };
}

/** A typed client of the control surface for tests in another process. */
export function connectFakeGitHub(url: string) {
  const call = async (name: string, body: Body = {}, query = "") => {
    const res = await fetch(`${url}${CONTROL_PREFIX}${name}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`fake GitHub control ${name} failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { result: unknown }).result;
  };
  return {
    inject: async (failure: FakeFailure, options: { pathPrefix?: string; times?: number } = {}) =>
      (await call("inject", { failure, ...options })) as { id: number },
    removeFailure: (id: number) => call("remove-failure", { id }),
    clearFailures: () => call("clear-failures"),
    approveDevice: (userCode: string, login: string) => call("approve-device", { userCode, login }),
    denyDevice: (userCode: string) => call("deny-device", { userCode }),
    devices: async () => (await call("devices")) as { userCode: string; status: string }[],
    setMembership: (login: string, org: string, state: "active" | "pending" | null) => call("membership", { login, org, state }),
    revokeToken: (token: string) => call("revoke-token", { token }),
    push: async (repoId: number, branch: string, changes: Record<string, string | null>, message?: string) =>
      ((await call("push", { repoId, branch, changes, message })) as { sha: string }).sha,
    rename: (repoId: number, owner: string, name: string) => call("rename", { repoId, owner, name }),
    setCollaborator: (repoId: number, login: string, permission: RepoPermission) => call("collaborator", { repoId, login, permission }),
    setInstallationRepositories: (installationId: number, repositoryIds: number[]) =>
      call("installation-repositories", { installationId, repositoryIds }),
    countRequests: async (prefix: string) => ((await call("requests", {}, `?prefix=${encodeURIComponent(prefix)}`)) as { count: number }).count,
  };
}
