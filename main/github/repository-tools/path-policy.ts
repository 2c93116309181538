/**
 * Which repository paths a tool may ask GitHub for. A path is relative, forward-slash separated, made of plain
 * segments: no absolute or drive-letter forms, no `.`/`..`/empty segments, no backslashes, no percent-encoded escapes,
 * no NUL or control characters, no bidi overrides, and the same under Unicode compatibility normalisation (so
 * fullwidth dots and slashes cannot smuggle a `..`). Refusal is the default; the corpus test lists what we refuse.
 */
import { MAX_REPOSITORY_PATH_CHARS } from "../../util/limits.js";

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

const CONTROL_OR_INVISIBLE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const ENCODED_ESCAPE = /%(?:[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/;

function checkForm(path: string): string | null {
  if (CONTROL_OR_INVISIBLE.test(path)) return "control or invisible characters are not allowed in paths";
  if (path.includes("\\")) return "backslashes are not allowed; use forward slashes";
  if (ENCODED_ESCAPE.test(path)) return "percent-encoded sequences are not allowed; give the path as plain text";
  if (path.startsWith("/") || path.startsWith("~")) return "the path must be relative to the repository root";
  if (/^[A-Za-z]:/.test(path)) return "drive-letter paths are not repository paths";
  for (const segment of path.split("/")) {
    if (segment === "") return "empty path segments are not allowed";
    if (segment === "." || segment === "..") return "`.` and `..` segments are not allowed";
    if (/^[\s.]+$/.test(segment)) return "segments made only of dots and spaces are not allowed";
  }
  return null;
}

/** Validates a file path (no trailing slash). */
export function checkRepositoryPath(input: unknown): PathCheck {
  if (typeof input !== "string") return { ok: false, reason: "the path must be a string" };
  if (input.length === 0) return { ok: false, reason: "the path is empty" };
  if (input.length > MAX_REPOSITORY_PATH_CHARS) return { ok: false, reason: `paths are at most ${MAX_REPOSITORY_PATH_CHARS} characters` };
  const problem = checkForm(input) ?? (input.normalize("NFKC") !== input ? checkForm(input.normalize("NFKC")) : null);
  return problem ? { ok: false, reason: problem } : { ok: true, path: input };
}

/** Validates a directory prefix: the same rules, one trailing slash tolerated. */
export function checkRepositoryPrefix(input: unknown): PathCheck {
  if (typeof input === "string" && input.endsWith("/") && input.length > 1) return checkRepositoryPath(input.slice(0, -1));
  return checkRepositoryPath(input);
}

/** Encodes a checked path for a URL, segment by segment (the `/` separators stay). */
export function encodeRepositoryPath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
