/**
 * The layering rule, in the manner of VS Code's code-layering lint: where a file lives decides what it may import.
 *   shared/        imports nothing of ours outside shared/; shared/ outside shared/node/ uses no Node built-ins
 *   renderer/      never imports main/, sync-relay/, preload/ or shared/node/
 *   preload/       never imports main/, sync-relay/ or renderer/
 *   sync-relay/    imports only shared/ of ours
 *   main/          each folder imports only the main/ folders MAIN_IMPORTS names (a DAG: no folder-level cycles; the
 *                  composition root main/core/ sits above every service, the shells above it), and shipped main/ code
 *                  imports nothing of preload/, renderer/, sync-relay/ or test support
 *   'electron'     only main/electron/ and preload/ (the preload must reach contextBridge) import it
 * Every Node built-in counts as one (`isBuiltin`: "fs", "node:fs", "fs/promises", ...). Tests and test support may
 * reach across main/ folders and into sync-relay/ and test-support/ (they start relays and fixtures), never into
 * electron. `findLayeringViolations` is pure over a file map so its own test can prove it catches each kind.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join, posix, relative, sep } from "node:path";

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/g,
  /\bexport\s+(?:type\s+)?[^'"]*?\sfrom\s+["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];
const NODE_ONLY_PACKAGES = new Set(["better-sqlite3", "ws"]);

export function importsOf(source: string): string[] {
  const found = new Set<string>();
  for (const pattern of IMPORT_PATTERNS) for (const m of source.matchAll(pattern)) found.add(m[1]);
  return [...found];
}

/**
 * main/'s folders, each with the main/ folders it may import besides itself (and shared/). "main" is main/'s own
 * files (the host-mode entry, cli.ts), a shell like main/host/ and main/electron/.
 */
const SERVICES = ["main/util", "main/store", "main/documents", "main/conversations", "main/planner", "main/github", "main/settings", "main/sync", "main/agents", "main/agent-chat", "main/mcp", "main/api"];
export const MAIN_IMPORTS: Record<string, readonly string[]> = {
  "main/util": [],
  "main/store": ["main/util"],
  "main/documents": ["main/store", "main/util"],
  "main/conversations": ["main/documents", "main/store", "main/util"],
  "main/planner": ["main/conversations", "main/documents", "main/github", "main/settings", "main/store", "main/util"],
  "main/github": ["main/documents", "main/store", "main/util"],
  "main/settings": ["main/github", "main/store", "main/util"],
  "main/sync": ["main/documents", "main/settings", "main/store", "main/util"],
  "main/agents": ["main/store", "main/util"],
  "main/agent-chat": ["main/documents", "main/store", "main/util"],
  "main/mcp": ["main/agent-chat", "main/agents", "main/conversations", "main/documents", "main/github", "main/store", "main/util"],
  "main/api": ["main/conversations", "main/documents", "main/github", "main/mcp", "main/settings", "main/store", "main/sync", "main/util"],
  "main/core": SERVICES,
  "main/host": [...SERVICES, "main/core"],
  "main/electron": [...SERVICES, "main/core", "main/host"],
  main: [...SERVICES, "main/core", "main/host"],
};

function layerOf(path: string): string {
  if (path.startsWith("main/electron/")) return "main/electron";
  if (path.startsWith("shared/node/")) return "shared/node";
  return path.split("/")[0];
}

/** The main/ folder a path is in ("main" for main/'s own files), or null outside main/. */
function mainFolderOf(path: string): string | null {
  const parts = path.split("/");
  if (parts[0] !== "main") return null;
  return parts.length > 2 ? `main/${parts[1]}` : "main";
}

/** Tests and the fixtures, helpers and fakes only tests import. */
function isTestCode(path: string): boolean {
  const name = path.split("/").at(-1) ?? "";
  return /\.test\.tsx?$/.test(name) || /(^|-)test-|fixture|full-database/.test(name);
}

function isNodeBuiltin(spec: string): boolean {
  return isBuiltin(spec);
}

/** files: repo-relative posix path -> source text. */
export function findLayeringViolations(files: Map<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [file, source] of files) {
    const layer = layerOf(file);
    for (const spec of importsOf(source)) {
      const target = spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), spec)) : null;
      const targetLayer = target ? layerOf(target) : null;
      const flag = (rule: string) => out.push({ file, specifier: spec, rule });

      if (spec === "electron" || spec.startsWith("electron/")) {
        if (layer !== "main/electron" && layer !== "preload") flag("only main/electron/ and preload/ import electron");
      }
      if (layer === "shared" || layer === "shared/node") {
        if (targetLayer && targetLayer !== "shared" && targetLayer !== "shared/node") flag("shared/ imports nothing of ours");
        if (layer === "shared" && targetLayer === "shared/node") flag("shared/ common code must not import shared/node/");
        if (layer === "shared" && (isNodeBuiltin(spec) || NODE_ONLY_PACKAGES.has(spec))) flag("shared/ common code is environment-neutral");
      }
      if (layer === "renderer") {
        if (targetLayer && ["main", "main/electron", "sync-relay", "preload", "shared/node"].includes(targetLayer)) {
          flag("renderer/ imports only renderer/ and shared/");
        }
        // Build configs and tests run under Node; only code that ships in the page must stay browser-only.
        const runsInNode = /\.config\.[cm]?ts$/.test(file) || /\.test\.tsx?$/.test(file);
        if (!runsInNode && (isNodeBuiltin(spec) || NODE_ONLY_PACKAGES.has(spec))) flag("renderer/ runs in a browser");
      }
      if (layer === "preload" && targetLayer && ["main", "main/electron", "sync-relay", "renderer", "shared/node"].includes(targetLayer)) {
        flag("preload/ imports only shared/");
      }
      if (layer === "sync-relay" && targetLayer && !["sync-relay", "shared", "shared/node"].includes(targetLayer)) {
        flag("sync-relay/ imports only shared/");
      }
      const from = mainFolderOf(file);
      if (from !== null && target !== null && !isTestCode(file)) {
        const to = mainFolderOf(target);
        if (to === null && targetLayer !== "shared" && targetLayer !== "shared/node") flag("main/ imports only main/ and shared/");
        if (to !== null && to !== from && !(MAIN_IMPORTS[from] ?? []).includes(to)) flag(`${from}/ may not import ${to}/`);
      }
    }
  }
  return out;
}

const LAYERED_ROOTS = ["main", "preload", "renderer", "sync-relay", "shared", "e2e", "bench", "test-support"];

export function collectSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "dist" || name === "out") continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(name)) files.set(relative(root, full).split(sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  for (const top of LAYERED_ROOTS) {
    try {
      walk(join(root, top));
    } catch {
      // a missing top-level folder has nothing to check
    }
  }
  return files;
}
