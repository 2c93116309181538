/**
 * Serves the built renderer from one folder. Paths are decoded once, normalised, and must stay inside the folder,
 * also once symlinks are followed; anything else is a 404 (never a 500), so a crafted URL can neither escape nor
 * crash the server. Every answer says not to sniff types or be framed (X-Frame-Options for browsers that predate
 * CSP's frame-ancestors).
 */
import { createReadStream, realpathSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";

/** File types the renderer build produces; host mode and the Electron app:// protocol both serve them. */
export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

/** The page may talk only to its own origin; scripts and wasm only from it. */
export const HOST_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Returns the absolute file to serve, or null when the path is malformed or escapes `root`. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split("?")[0].split("#")[0]);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const relativePath = decoded === "/" || decoded === "" ? "index.html" : decoded.replace(/^\/+/, "");
  const base = resolve(root);
  const target = normalize(join(base, relativePath));
  if (target !== base && !target.startsWith(base + sep)) return null;
  return target;
}

/** Headers every static answer carries, found or not: no type sniffing, no framing. */
export const STATIC_SAFETY_HEADERS = { "x-content-type-options": "nosniff", "x-frame-options": "DENY" } as const;

/** `file` when it, with every symlink followed, is still inside `root` (itself resolved); null otherwise or when absent. */
export function realFileInside(root: string, file: string): string | null {
  try {
    const base = realpathSync(root);
    const real = realpathSync(file);
    return real.startsWith(base + sep) ? real : null;
  } catch {
    return null;
  }
}

export function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): void {
  const requested = resolveStaticPath(root, req.url ?? "/");
  const file = requested && realFileInside(root, requested);
  let size = -1;
  try {
    if (file) {
      const stat = statSync(file);
      if (stat.isFile()) size = stat.size;
    }
  } catch {
    size = -1;
  }
  if (!file || size < 0) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...STATIC_SAFETY_HEADERS }).end("Not found");
    return;
  }
  const isHtml = extname(file) === ".html";
  res.writeHead(200, {
    "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
    "content-length": size,
    "content-security-policy": HOST_CSP,
    ...STATIC_SAFETY_HEADERS,
    "referrer-policy": "no-referrer",
    "cache-control": isHtml ? "no-store" : "public, max-age=31536000, immutable",
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(file).on("error", () => res.destroy()).pipe(res);
}
