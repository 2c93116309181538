/**
 * A tiny content-addressed model of a repository's history for the fake GitHub: commits own a full file map, so any
 * commit can be read at any time (the session pin depends on old commits staying readable while a branch moves).
 * Blob SHAs are real git blob SHAs; tree and commit SHAs are deterministic SHA-1s of their contents (not git's exact
 * encoding, which no client of ours inspects). Same input, same SHAs, every run.
 */
import { createHash } from "node:crypto";

export interface FakeAuthor {
  name: string;
  email: string;
  /** GitHub login attached to the commit, if any. */
  login?: string;
  date: string;
}

export interface FakeCommit {
  sha: string;
  message: string;
  author: FakeAuthor;
  parents: string[];
  treeSha: string;
  /** Full snapshot: repository-relative path -> bytes. */
  files: Map<string, Buffer>;
}

export interface TreeEntry {
  path: string;
  mode: string;
  type: "blob" | "tree";
  sha: string;
  size?: number;
}

const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest("hex");

export function blobSha(content: Buffer): string {
  return sha1(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]));
}

/** Every blob and every directory implied by the file map, sorted by path like GitHub's recursive tree. */
export function treeEntries(files: Map<string, Buffer>): TreeEntry[] {
  const dirs = new Map<string, string[]>();
  for (const path of files.keys()) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!dirs.has(dir)) dirs.set(dir, []);
      dirs.get(dir)!.push(path);
    }
  }
  const entries: TreeEntry[] = [];
  for (const [dir, paths] of dirs) {
    const digest = paths.sort().map((p) => `${p}:${blobSha(files.get(p)!)}`).join("\n");
    entries.push({ path: dir, mode: "040000", type: "tree", sha: sha1(`tree ${dir}\n${digest}`) });
  }
  for (const [path, content] of files) {
    entries.push({ path, mode: "100644", type: "blob", sha: blobSha(content), size: content.length });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function treeShaOf(files: Map<string, Buffer>): string {
  return sha1(treeEntries(files).map((e) => `${e.type} ${e.path} ${e.sha}`).join("\n"));
}

export type FileChanges = Record<string, string | Buffer | null>;

/** Applies changes (null deletes) on top of the parent's snapshot and returns the new commit. */
export function makeCommit(
  parent: FakeCommit | null,
  changes: FileChanges,
  message: string,
  author: FakeAuthor,
): FakeCommit {
  const files = new Map(parent?.files ?? []);
  for (const [path, content] of Object.entries(changes)) {
    if (content === null) files.delete(path);
    else files.set(path, typeof content === "string" ? Buffer.from(content, "utf8") : content);
  }
  const treeSha = treeShaOf(files);
  const parents = parent ? [parent.sha] : [];
  const sha = sha1(`commit\ntree ${treeSha}\nparents ${parents.join(",")}\nauthor ${author.name} ${author.date}\n\n${message}`);
  return { sha, message, author, parents, treeSha, files };
}

/** True when the commit changed `path` (a file, or anything under a directory) relative to its first parent. */
export function commitTouches(commit: FakeCommit, parent: FakeCommit | null, path: string): boolean {
  const under = (p: string) => p === path || p.startsWith(`${path}/`);
  const before = parent?.files ?? new Map<string, Buffer>();
  for (const [p, content] of commit.files) {
    if (!under(p)) continue;
    const old = before.get(p);
    if (!old || !old.equals(content)) return true;
  }
  for (const p of before.keys()) if (under(p) && !commit.files.has(p)) return true;
  return false;
}
