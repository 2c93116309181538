/**
 * The layering rule, in the manner of VS Code's code-layering lint: where a file lives decides what it may import.
 *   shared/        imports nothing of ours outside shared/; shared/ outside shared/node/ uses no Node built-ins
 *   renderer/      never imports main/, sync-relay/, preload/ or shared/node/
 *   preload/       never imports main/, sync-relay/ or renderer/
 *   sync-relay/    imports only shared/ of ours
 *   'electron'     only main/electron/ and preload/ (the preload must reach contextBridge) import it
 * `findLayeringViolations` is pure over a file map so its own test can prove it catches each kind of violation.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
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

function layerOf(path: string): string {
  if (path.startsWith("main/electron/")) return "main/electron";
  if (path.startsWith("shared/node/")) return "shared/node";
  return path.split("/")[0];
}

function isNodeBuiltin(spec: string): boolean {
  return spec.startsWith("node:") || ["fs", "path", "os", "crypto", "http", "net", "child_process"].includes(spec);
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
