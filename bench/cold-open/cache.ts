/**
 * Where the cold-open suite keeps the document built from the trace (bench/.cache/, gitignored): building it applies
 * 259,778 changes (~25-60 s), so it is built once and reused while the trace, Automerge version and layout match.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BENCH_DIR, PROJECT_DIR } from "../lib/child.js";
import { PAPER_TRACE_PATH } from "./trace.js";

export const CACHE_DIR = join(BENCH_DIR, ".cache");
export const DOC_BYTES_PATH = join(CACHE_DIR, "paper.automerge");
export const STORE_PATH = join(CACHE_DIR, "paper-store.sqlite");
export const META_PATH = join(CACHE_DIR, "paper.meta.json");
/** Bump when what build.ts writes changes shape. */
const LAYOUT_VERSION = 1;

export interface CacheMeta {
  key: string;
  documentId: string;
  url: string;
  changes: number;
  textLength: number;
  bytes: number;
  buildMs: number;
}

export function cacheKey(): string {
  const trace = statSync(PAPER_TRACE_PATH);
  // Read by path: these packages do not export ./package.json.
  const version = (pkg: string) =>
    (JSON.parse(readFileSync(join(PROJECT_DIR, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  const automerge = version("@automerge/automerge");
  const repo = version("@automerge/automerge-repo");
  return `v${LAYOUT_VERSION}:${trace.size}:${trace.mtimeMs}:am${automerge}:repo${repo}`;
}

export function readValidMeta(): CacheMeta | undefined {
  if (!existsSync(META_PATH) || !existsSync(DOC_BYTES_PATH) || !existsSync(STORE_PATH)) return undefined;
  const meta = JSON.parse(readFileSync(META_PATH, "utf8")) as CacheMeta;
  return meta.key === cacheKey() ? meta : undefined;
}
