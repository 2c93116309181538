/**
 * Deterministic fixtures for the fake GitHub: users and their tokens, organization memberships, one GitHub App's
 * installations, repositories with real histories, pull requests, statuses and check runs. Tests rely on the exact
 * names and sizes here (e.g. a file of exactly 256 KiB and one a byte over), so change them only with the tests.
 */
import { makeCommit, type FakeAuthor, type FakeCommit, type FileChanges } from "./git-model.js";

export type RepoPermission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface FakeUser {
  login: string;
  id: number;
  name: string;
}

export interface FakePullFile {
  filename: string;
  status: "added" | "modified" | "removed" | "renamed";
  additions: number;
  deletions: number;
  patch: string;
}

export interface FakePull {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  merged: boolean;
  draft: boolean;
  user: string;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  createdAt: string;
  updatedAt: string;
  files: FakePullFile[];
  commits: { sha: string; message: string; author: string; date: string }[];
  reviewComments: { id: number; user: string; path: string; line: number; body: string; createdAt: string }[];
  reviews: { id: number; user: string; state: string; body: string; submittedAt: string }[];
  comments: { id: number; user: string; body: string; createdAt: string }[];
}

export interface FakeRepo {
  id: number;
  nodeId: string;
  owner: string;
  ownerType: "User" | "Organization";
  name: string;
  private: boolean;
  defaultBranch: string;
  /** branch name -> commit sha */
  branches: Record<string, string>;
  commits: Map<string, FakeCommit>;
  collaborators: Record<string, RepoPermission>;
  pulls: FakePull[];
  /** sha -> combined status */
  statuses: Record<string, { state: string; statuses: { context: string; state: string; description: string }[] }>;
  /** sha -> check runs */
  checkRuns: Record<string, { id: number; name: string; status: string; conclusion: string | null }[]>;
}

export interface FakeInstallation {
  id: number;
  account: string;
  accountType: "User" | "Organization";
  repositoryIds: number[];
  /** Logins who see this installation in GET /user/installations. */
  users: string[];
}

export interface FakeFixtures {
  /** The GitHub App's OAuth client id; the device flow refuses any other. */
  clientId: string;
  users: FakeUser[];
  /** Pre-issued access tokens (never expire unless revoked) -> login. */
  tokens: Record<string, string>;
  /** login -> org -> membership state. */
  memberships: Record<string, Record<string, "active" | "pending">>;
  installations: FakeInstallation[];
  repos: FakeRepo[];
  /** Lifetimes of tokens issued by the device flow and refresh, as GitHub Apps with expiring tokens use. */
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
  /** Poll interval the device flow asks for, in seconds (GitHub: 5). */
  deviceIntervalSeconds: number;
  deviceExpiresInSeconds: number;
  /** Recursive trees longer than this come back with truncated: true, as GitHub does for huge trees. */
  treeTruncateAt: number;
}

const author = (name: string, login: string, day: number): FakeAuthor => ({
  name,
  email: `${login}@example.test`,
  login,
  date: new Date(Date.UTC(2025, 0, day, 12, 0, 0)).toISOString(),
});

/** Builds a repository from a linear history of change sets; the last commit is the default branch head. */
export function buildRepo(init: {
  id: number;
  owner: string;
  ownerType?: "User" | "Organization";
  name: string;
  private?: boolean;
  defaultBranch?: string;
  history: { message: string; author: FakeAuthor; changes: FileChanges }[];
  collaborators?: Record<string, RepoPermission>;
  pulls?: FakePull[];
}): FakeRepo {
  const commits = new Map<string, FakeCommit>();
  let head: FakeCommit | null = null;
  for (const step of init.history) {
    head = makeCommit(head, step.changes, step.message, step.author);
    commits.set(head.sha, head);
  }
  const defaultBranch = init.defaultBranch ?? "main";
  return {
    id: init.id,
    nodeId: `R_kgDO${String(init.id).padStart(8, "0")}`,
    owner: init.owner,
    ownerType: init.ownerType ?? "Organization",
    name: init.name,
    private: init.private ?? true,
    defaultBranch,
    branches: head ? { [defaultBranch]: head.sha } : {},
    commits,
    collaborators: init.collaborators ?? {},
    pulls: init.pulls ?? [],
    statuses: {},
    checkRuns: {},
  };
}

/** Exactly 256 KiB of ASCII text in 64-byte lines. */
export const EXACT_LIMIT_TEXT = "x".repeat(63).concat("\n").repeat(4096);
/** 1,000 numbered lines ("line 1" .. "line 1000"), for window tests. */
export const THOUSAND_LINES = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
/** Bytes of a tiny PNG header plus NULs: what a binary file looks like. */
export const BINARY_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
/** Latin-1 bytes that are not valid UTF-8 and contain no NUL. */
export const LATIN1_BYTES = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

export const PLANETS = { id: 1001, owner: "octo-org", name: "planets" } as const;
export const ELSEWHERE = { id: 2002, owner: "other-org", name: "elsewhere" } as const;
export const SOLO = { id: 3003, owner: "alice", name: "notes" } as const;

export function defaultFixtures(): FakeFixtures {
  const alice = author("Alice Example", "alice", 1);
  const bob = author("Bob Example", "bob", 2);
  const planets = buildRepo({
    ...PLANETS,
    history: [
      {
        message: "Initial layout",
        author: alice,
        changes: {
          "README.md": "# Planets\n\nA catalogue of planets.\n",
          "src/index.ts": 'export { orbit } from "./lib/orbit.js";\n',
          "src/lib/orbit.ts": "export function orbit(radius: number): number {\n  return 2 * Math.PI * radius;\n}\n",
          "src/lib/deep/nested/moons.ts": "export const moons = ['Io', 'Europa', 'Ganymede', 'Callisto'];\n",
          "docs/guide/intro.md": "# Intro\n\nRead the orbit function first.\n",
        },
      },
      {
        message: "Add assets: a large file, a binary file, an exact-limit file",
        author: bob,
        changes: {
          "assets/large.txt": "y".repeat(300 * 1024),
          "assets/exact-limit.txt": EXACT_LIMIT_TEXT,
          "assets/over-limit.txt": EXACT_LIMIT_TEXT + "z",
          "assets/logo.png": BINARY_BYTES,
          "assets/latin1.txt": LATIN1_BYTES,
          "docs/thousand-lines.txt": THOUSAND_LINES,
        },
      },
      {
        message: "Document the orbit helper\n\nLonger body of the commit message.",
        author: alice,
        changes: { "docs/guide/intro.md": "# Intro\n\nRead the orbit function first. It returns a circumference.\n" },
      },
    ],
    collaborators: { alice: "admin", bob: "write", carol: "read", dave: "maintain" },
  });
  const head = planets.branches.main;
  planets.branches["feature/rings"] = head;
  planets.pulls = [
    {
      number: 1,
      title: "Add rings to Saturn",
      body: "This adds rings.",
      state: "open",
      merged: false,
      draft: false,
      user: "bob",
      head: { ref: "feature/rings", sha: "a".repeat(40) },
      base: { ref: "main", sha: head },
      createdAt: "2025-01-05T10:00:00Z",
      updatedAt: "2025-01-06T10:00:00Z",
      files: [
        { filename: "src/lib/rings.ts", status: "added", additions: 3, deletions: 0, patch: "@@ -0,0 +1,3 @@\n+export const rings = true;\n+\n+// end\n" },
        { filename: "README.md", status: "modified", additions: 1, deletions: 0, patch: "@@ -1,3 +1,4 @@\n # Planets\n+Now with rings.\n" },
      ],
      commits: [{ sha: "a".repeat(40), message: "Add rings", author: "bob", date: "2025-01-05T10:00:00Z" }],
      reviewComments: [{ id: 501, user: "alice", path: "src/lib/rings.ts", line: 1, body: "Are rings a boolean?", createdAt: "2025-01-05T11:00:00Z" }],
      reviews: [{ id: 601, user: "alice", state: "CHANGES_REQUESTED", body: "See comment.", submittedAt: "2025-01-05T11:00:00Z" }],
      comments: [{ id: 701, user: "carol", body: "Looking forward to this.", createdAt: "2025-01-05T12:00:00Z" }],
    },
    {
      number: 2,
      title: "Fix orbit rounding",
      body: "Rounds the circumference.",
      state: "closed",
      merged: true,
      draft: false,
      user: "alice",
      head: { ref: "fix/rounding", sha: "b".repeat(40) },
      base: { ref: "main", sha: head },
      createdAt: "2025-01-03T10:00:00Z",
      updatedAt: "2025-01-04T10:00:00Z",
      files: [{ filename: "src/lib/orbit.ts", status: "modified", additions: 1, deletions: 1, patch: "@@ -1,3 +1,3 @@\n-  return 2 * Math.PI * radius;\n+  return Math.round(2 * Math.PI * radius);\n" }],
      commits: [{ sha: "b".repeat(40), message: "Round", author: "alice", date: "2025-01-03T10:00:00Z" }],
      reviewComments: [],
      reviews: [{ id: 602, user: "bob", state: "APPROVED", body: "", submittedAt: "2025-01-03T12:00:00Z" }],
      comments: [],
    },
    {
      number: 3,
      title: "Draft: moons table",
      body: "Work in progress.",
      state: "open",
      merged: false,
      draft: true,
      user: "carol",
      head: { ref: "draft/moons", sha: "c".repeat(40) },
      base: { ref: "main", sha: head },
      createdAt: "2025-01-07T10:00:00Z",
      updatedAt: "2025-01-07T10:00:00Z",
      files: [],
      commits: [],
      reviewComments: [],
      reviews: [],
      comments: [],
    },
  ];
  planets.statuses["a".repeat(40)] = {
    state: "failure",
    statuses: [
      { context: "ci/build", state: "success", description: "Build passed" },
      { context: "ci/test", state: "failure", description: "2 tests failed" },
    ],
  };
  planets.checkRuns["a".repeat(40)] = [
    { id: 801, name: "lint", status: "completed", conclusion: "success" },
    { id: 802, name: "unit", status: "in_progress", conclusion: null },
  ];

  const elsewhere = buildRepo({
    ...ELSEWHERE,
    history: [{ message: "Elsewhere", author: bob, changes: { "src/lib/orbit.ts": "export const orbit = 'elsewhere';\n" } }],
    collaborators: { alice: "read", bob: "admin" },
  });
  const solo = buildRepo({
    ...SOLO,
    ownerType: "User",
    history: [{ message: "Notes", author: alice, changes: { "notes.md": "# Notes\n" } }],
    collaborators: { alice: "admin" },
  });

  return {
    clientId: "Iv1.fakeclientid0001",
    users: [
      { login: "alice", id: 1, name: "Alice Example" },
      { login: "bob", id: 2, name: "Bob Example" },
      { login: "carol", id: 3, name: "Carol Example" },
      { login: "dave", id: 4, name: "Dave Example" },
      { login: "mallory", id: 5, name: "Mallory Example" },
    ],
    tokens: {
      "ghu_alice": "alice",
      "ghu_bob": "bob",
      "ghu_carol": "carol",
      "ghu_dave": "dave",
      "ghu_mallory": "mallory",
    },
    memberships: {
      alice: { "octo-org": "active" },
      bob: { "octo-org": "active", "other-org": "active" },
      carol: { "octo-org": "pending" },
      dave: { "other-org": "active" },
    },
    installations: [
      { id: 71, account: "octo-org", accountType: "Organization", repositoryIds: [PLANETS.id], users: ["alice", "bob", "carol", "dave"] },
      { id: 72, account: "other-org", accountType: "Organization", repositoryIds: [ELSEWHERE.id], users: ["bob", "dave"] },
      { id: 73, account: "alice", accountType: "User", repositoryIds: [SOLO.id], users: ["alice"] },
    ],
    repos: [planets, elsewhere, solo],
    accessTokenLifetimeSeconds: 8 * 60 * 60,
    refreshTokenLifetimeSeconds: 184 * 24 * 60 * 60,
    deviceIntervalSeconds: 5,
    deviceExpiresInSeconds: 900,
    treeTruncateAt: 100_000,
  };
}
