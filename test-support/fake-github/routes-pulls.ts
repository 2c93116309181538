/**
 * Pull requests, their files, commits, review comments, reviews and conversation comments, plus commit statuses and
 * check runs: what the read-only pull-request tools call. `GET /pulls/{n}` answers with a unified diff when asked for
 * the diff media type, as GitHub does.
 */
import type { FakePull, FakeRepo } from "./fixtures.js";
import { notFound, ok, paged, userJson, type FakeRequest, type FakeResponse, type Route } from "./http-types.js";
import type { FakeGitHubState } from "./state.js";

const REPO = "^/repos/([^/]+)/([^/]+)";

function withPull(
  handler: (pull: FakePull, repo: FakeRepo, req: FakeRequest, state: FakeGitHubState) => FakeResponse,
): Route["handle"] {
  return (req, m, state) => {
    const repo = state.repoByName(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
    if (!repo || !state.canRead(req.login!, repo)) return notFound();
    const pull = repo.pulls.find((p) => p.number === Number(m[3]));
    if (!pull) return notFound();
    return handler(pull, repo, req, state);
  };
}

function pullJson(p: FakePull, repo: FakeRepo, baseUrl: string, full: boolean) {
  const base = {
    number: p.number,
    title: p.title,
    state: p.state,
    draft: p.draft,
    user: userJson(p.user),
    body: p.body,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    merged_at: p.merged ? p.updatedAt : null,
    head: { ref: p.head.ref, sha: p.head.sha },
    base: { ref: p.base.ref, sha: p.base.sha },
    html_url: `${baseUrl}/${repo.owner}/${repo.name}/pull/${p.number}`,
  };
  if (!full) return base;
  return {
    ...base,
    merged: p.merged,
    mergeable: p.state === "open" ? true : null,
    additions: p.files.reduce((n, f) => n + f.additions, 0),
    deletions: p.files.reduce((n, f) => n + f.deletions, 0),
    changed_files: p.files.length,
    commits: p.commits.length,
    comments: p.comments.length,
    review_comments: p.reviewComments.length,
  };
}

function diffOf(p: FakePull): string {
  return p.files.map((f) => `diff --git a/${f.filename} b/${f.filename}\n--- a/${f.filename}\n+++ b/${f.filename}\n${f.patch}`).join("");
}

function findRepoForRef(req: FakeRequest, m: RegExpMatchArray, state: FakeGitHubState): FakeRepo | null {
  const repo = state.repoByName(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
  return repo && state.canRead(req.login!, repo) ? repo : null;
}

export const pullRoutes: Route[] = [
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls$`),
    auth: true,
    handle(req, m, state) {
      const repo = findRepoForRef(req, m, state);
      if (!repo) return notFound();
      const want = req.query.get("state") ?? "open";
      const pulls = repo.pulls
        .filter((p) => want === "all" || p.state === want)
        .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
      return paged(pulls, req, (page) => page.map((p) => pullJson(p, repo, req.baseUrl, false)));
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls/(\\d+)$`),
    auth: true,
    handle: withPull((p, repo, req) => {
      const accept = String(req.headers.accept ?? "");
      if (accept.includes("diff")) return { status: 200, text: diffOf(p), headers: { "content-type": "text/plain; charset=utf-8" } };
      return ok(pullJson(p, repo, req.baseUrl, true));
    }),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls/(\\d+)/files$`),
    auth: true,
    handle: withPull((p, _r, req) => paged(p.files, req, (page) => page.map((f) => ({ ...f, changes: f.additions + f.deletions })))),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls/(\\d+)/commits$`),
    auth: true,
    handle: withPull((p, _r, req) =>
      paged(p.commits, req, (page) => page.map((c) => ({ sha: c.sha, commit: { message: c.message, author: { name: c.author, date: c.date } }, author: userJson(c.author) }))),
    ),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls/(\\d+)/comments$`),
    auth: true,
    handle: withPull((p, _r, req) =>
      paged(p.reviewComments, req, (page) => page.map((c) => ({ id: c.id, user: userJson(c.user), path: c.path, line: c.line, body: c.body, created_at: c.createdAt }))),
    ),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/pulls/(\\d+)/reviews$`),
    auth: true,
    handle: withPull((p, _r, req) =>
      paged(p.reviews, req, (page) => page.map((r) => ({ id: r.id, user: userJson(r.user), state: r.state, body: r.body, submitted_at: r.submittedAt }))),
    ),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/issues/(\\d+)/comments$`),
    auth: true,
    handle: withPull((p, _r, req) =>
      paged(p.comments, req, (page) => page.map((c) => ({ id: c.id, user: userJson(c.user), body: c.body, created_at: c.createdAt }))),
    ),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/commits/([^/]+)/status$`),
    auth: true,
    handle(req, m, state) {
      const repo = findRepoForRef(req, m, state);
      if (!repo) return notFound();
      const sha = repo.branches[decodeURIComponent(m[3])] ?? decodeURIComponent(m[3]);
      const s = repo.statuses[sha] ?? { state: "pending", statuses: [] };
      return ok({ state: s.state, sha, total_count: s.statuses.length, statuses: s.statuses });
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/commits/([^/]+)/check-runs$`),
    auth: true,
    handle(req, m, state) {
      const repo = findRepoForRef(req, m, state);
      if (!repo) return notFound();
      const sha = repo.branches[decodeURIComponent(m[3])] ?? decodeURIComponent(m[3]);
      const runs = repo.checkRuns[sha] ?? [];
      return paged(runs, req, (page) => ({ total_count: runs.length, check_runs: page.map((r) => ({ ...r, head_sha: sha })) }));
    },
  },
];
