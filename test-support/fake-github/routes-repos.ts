/**
 * Repository reads: lookup by numeric id (how clients follow renames), collaborator permission, recursive trees,
 * contents, commit history, branches and code search. Access is as a user-to-server token sees it: the App must be
 * installed on the repository and the user must be able to see it, otherwise 404 (GitHub never says 403 here).
 */
import { blobSha, commitTouches, treeEntries, type FakeCommit } from "./git-model.js";
import type { FakeRepo } from "./fixtures.js";
import { notFound, ok, paged, repoJson, userJson, type FakeRequest, type FakeResponse, type Route } from "./http-types.js";
import type { FakeGitHubState } from "./state.js";

const REPO = "^/repos/([^/]+)/([^/]+)";

function withRepo(
  handler: (repo: FakeRepo, req: FakeRequest, m: RegExpMatchArray, state: FakeGitHubState) => FakeResponse,
): Route["handle"] {
  return (req, m, state) => {
    const repo = state.repoByName(decodeURIComponent(m[1]), decodeURIComponent(m[2]));
    if (!repo || !state.canRead(req.login!, repo)) return notFound();
    return handler(repo, req, m, state);
  };
}

function commitJson(repo: FakeRepo, sha: string, state: FakeGitHubState) {
  const c = repo.commits.get(sha)!;
  return {
    sha: c.sha,
    commit: { message: c.message, author: { name: c.author.name, email: c.author.email, date: c.author.date }, tree: { sha: c.treeSha } },
    author: c.author.login ? userJson(c.author.login, state.user(c.author.login)?.id) : null,
    parents: c.parents.map((p) => ({ sha: p })),
  };
}

function contentPath(raw: string): string {
  return raw.split("/").map((s) => decodeURIComponent(s)).join("/");
}

export const repoRoutes: Route[] = [
  {
    method: "GET",
    pattern: /^\/repositories\/(\d+)$/,
    auth: true,
    handle(req, m, state) {
      const repo = state.repoById(Number(m[1]));
      if (!repo || !state.canRead(req.login!, repo)) return notFound();
      return ok(repoJson(repo, req.baseUrl));
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}$`),
    auth: true,
    handle: withRepo((repo, req) => ok(repoJson(repo, req.baseUrl))),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/collaborators/([^/]+)/permission$`),
    auth: true,
    handle: withRepo((repo, _req, m, state) => {
      const login = decodeURIComponent(m[3]);
      const role = repo.collaborators[login] ?? "none";
      // GitHub folds maintain into write and triage into read in `permission`; role_name keeps the detail.
      const permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
      return ok({ permission, role_name: role, user: userJson(login, state.user(login)?.id ?? 0) });
    }),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/branches/(.+)$`),
    auth: true,
    handle: withRepo((repo, _req, m, state) => {
      const name = decodeURIComponent(m[3]);
      const sha = repo.branches[name];
      if (!sha) return notFound();
      return ok({ name, commit: commitJson(repo, sha, state), protected: false });
    }),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/git/trees/([^/]+)$`),
    auth: true,
    handle: withRepo((repo, req, m, state) => {
      const commit = state.resolveRef(repo, decodeURIComponent(m[3]));
      if (!commit) return notFound();
      const recursive = req.query.has("recursive");
      let entries = treeEntries(commit.files);
      if (!recursive) entries = entries.filter((e) => !e.path.includes("/"));
      const truncated = entries.length > state.fixtures.treeTruncateAt;
      return ok({ sha: commit.treeSha, tree: entries.slice(0, state.fixtures.treeTruncateAt), truncated });
    }),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/contents/(.*)$`),
    auth: true,
    handle: withRepo((repo, req, m, state) => {
      const commit = state.resolveRef(repo, req.query.get("ref") ?? repo.defaultBranch);
      if (!commit) return notFound();
      const path = contentPath(m[3]).replace(/\/$/, "");
      const file = commit.files.get(path);
      if (file) {
        // GitHub returns no content for files over 1 MB through this endpoint.
        const tooBig = file.length > 1024 * 1024;
        return ok({
          type: "file",
          name: path.split("/").pop(),
          path,
          size: file.length,
          sha: blobSha(file),
          encoding: tooBig ? "none" : "base64",
          content: tooBig ? "" : (file.toString("base64").match(/.{1,60}/g) ?? []).join("\n"),
        });
      }
      const children = treeEntries(commit.files).filter((e) => {
        const parent = e.path.includes("/") ? e.path.slice(0, e.path.lastIndexOf("/")) : "";
        return parent === path;
      });
      if (children.length === 0) return notFound();
      return ok(children.map((e) => ({ type: e.type === "tree" ? "dir" : "file", name: e.path.split("/").pop(), path: e.path, sha: e.sha, size: e.size ?? 0 })));
    }),
  },
  {
    method: "GET",
    pattern: new RegExp(`${REPO}/commits$`),
    auth: true,
    handle: withRepo((repo, req, _m, state) => {
      let commit = state.resolveRef(repo, req.query.get("sha") ?? repo.defaultBranch);
      if (!commit) return notFound();
      const path = req.query.get("path");
      const out: string[] = [];
      while (commit) {
        const parent: FakeCommit | null = commit.parents[0] ? repo.commits.get(commit.parents[0]) ?? null : null;
        if (!path || commitTouches(commit, parent, path)) out.push(commit.sha);
        commit = parent;
      }
      return paged(out, req, (page) => page.map((sha) => commitJson(repo, sha, state)));
    }),
  },
  {
    method: "GET",
    pattern: /^\/search\/code$/,
    auth: true,
    handle(req, _m, state) {
      const q = req.query.get("q") ?? "";
      const repoQualifiers = [...q.matchAll(/(?:^|\s)repo:([^\s/]+)\/(\S+)/g)].map((x) => state.repoByName(x[1], x[2]));
      const terms = q
        .replace(/(?:^|\s)\S+:\S+/g, " ")
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => t.replace(/^"|"$/g, "").toLowerCase());
      const textMatch = String(req.headers.accept ?? "").includes("text-match");
      const items: unknown[] = [];
      const hit = (repo: FakeRepo, path: string, content: Buffer, nodeId = repo.nodeId, fullName = `${repo.owner}/${repo.name}`) => {
        const text = content.toString("utf8");
        items.push({
          name: path.split("/").pop(),
          path,
          sha: blobSha(content),
          html_url: `${req.baseUrl}/${fullName}/blob/${repo.defaultBranch}/${path}`,
          repository: { ...repoJson(repo, req.baseUrl), node_id: nodeId, full_name: fullName },
          score: 1,
          ...(textMatch
            ? { text_matches: [{ fragment: text.split("\n").filter((l) => terms.some((t) => l.toLowerCase().includes(t))).join("\n").slice(0, 300) }] }
            : {}),
        });
      };
      for (const repo of repoQualifiers) {
        if (!repo || !state.canRead(req.login!, repo)) continue;
        const head = repo.commits.get(repo.branches[repo.defaultBranch])!;
        for (const [path, content] of head.files) {
          if (content.includes(0)) continue;
          const lower = (content.toString("utf8") + "\n" + path).toLowerCase();
          if (terms.length > 0 && terms.every((t) => lower.includes(t))) hit(repo, path, content);
        }
      }
      for (const leak of state.searchLeaks) {
        const repo = state.repoById(leak.repoId);
        const content = repo?.commits.get(repo.branches[repo.defaultBranch])?.files.get(leak.path);
        if (repo && content) hit(repo, leak.path, content, leak.fakeNodeId ?? repo.nodeId, leak.fakeFullName);
      }
      return paged(items, req, (page) => ({ total_count: items.length, incomplete_results: false, items: page }));
    },
  },
];
