/**
 * Test-only setup for the repository tool tests: the fake GitHub with the default fixtures plus a "wide" repository
 * (600 files, 25 commits) big enough to push every count bound past its edge, and a ToolContext bound and pinned
 * the way a Planner session would be.
 */
import { buildRepo, defaultFixtures, PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../../test-support/fake-github/server.js";
import { bindRepository, captureSessionPin, type RepositoryBinding } from "../repository-binding.js";
import { createGitHubRest, type GitHubRest } from "../rest-client.js";
import type { ToolContext } from "./tool-result.js";

export const WIDE = { id: 4004, owner: "octo-org", name: "wide" } as const;
export const WIDE_FILES = 600;
export const WIDE_COMMITS = 25;

export interface ToolHarness {
  fake: FakeGitHub;
  rest: GitHubRest;
  planets: ToolContext;
  wide: ToolContext;
  contextFor(repoId: number, options?: { timeoutMs?: number }): Promise<ToolContext>;
}

export async function startToolHarness(): Promise<ToolHarness> {
  const fixtures = defaultFixtures();
  const author = { name: "Wide", email: "wide@example.test", login: "alice", date: "2025-01-10T00:00:00Z" };
  const files: Record<string, string> = {};
  for (let i = 0; i < WIDE_FILES; i++) files[`files/f${String(i).padStart(3, "0")}.txt`] = `needle ${i}\n`;
  fixtures.repos.push(
    buildRepo({
      ...WIDE,
      history: [
        { message: "many files", author, changes: files },
        ...Array.from({ length: WIDE_COMMITS - 1 }, (_, i) => ({ message: `log ${i + 1}`, author, changes: { "log.txt": `entry ${i + 1}\n` } })),
      ],
      collaborators: { alice: "admin" },
    }),
  );
  fixtures.installations[0].repositoryIds.push(WIDE.id);
  const fake = await startFakeGitHub({ fixtures });
  const rest = createGitHubRest({ apiBaseUrl: fake.url, token: () => "ghu_alice" });
  const contextFor = async (repoId: number, options: { timeoutMs?: number } = {}): Promise<ToolContext> => {
    const r = fake.state.repoById(repoId)!;
    const binding: RepositoryBinding = bindRepository(71, { id: r.id, nodeId: r.nodeId, owner: r.owner, name: r.name, defaultBranch: r.defaultBranch, private: r.private });
    const ctxRest = options.timeoutMs ? createGitHubRest({ apiBaseUrl: fake.url, token: () => "ghu_alice", timeoutMs: options.timeoutMs }) : rest;
    return { rest: ctxRest, binding, pin: await captureSessionPin(rest, binding) };
  };
  return { fake, rest, planets: await contextFor(PLANETS.id), wide: await contextFor(WIDE.id), contextFor };
}
