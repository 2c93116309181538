/**
 * The app:// scheme that serves the built renderer. It is registered as standard + secure before `ready`, so the
 * page gets a real origin (app://chopin) with secure-context APIs, and the handler answers only GET/HEAD for files
 * inside the renderer folder: the path is decoded once and must stay inside it (resolveStaticPath), so
 * "../", "%2e%2e", encoded slashes, backslashes, absolute paths and symlinks leading out all end in a 404, never a
 * file outside.
 * Every response carries the CSP, so the policy holds even where webRequest does not see custom schemes.
 */
import { protocol } from "electron";
import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import { CONTENT_TYPES, realFileInside, resolveStaticPath } from "../host/static-files.js";
import { APP_CSP, APP_HOST, APP_SCHEME } from "./app-origin.js";

const BASE_HEADERS = {
  "content-security-policy": APP_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** Must run before app `ready` (Electron refuses later). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { ...BASE_HEADERS, "content-type": "text/plain; charset=utf-8" } });
}

/** Returns the path part of an app://chopin/ URL, undecoded, or null for any other URL. */
export function appPathOf(url: string): string | null {
  const prefix = `${APP_SCHEME}://${APP_HOST}`;
  if (!url.toLowerCase().startsWith(prefix)) return null;
  const rest = url.slice(prefix.length);
  if (rest !== "" && !rest.startsWith("/")) return null; // e.g. app://chopin.evil/ or app://chopin:80/
  return rest === "" ? "/" : rest;
}

export type AppRequest = { url: string; method: string };

/** The handler for protocol.handle(APP_SCHEME, ...), pure over the file system so it can be tested without Electron. */
export function createAppProtocolHandler(rendererDir: string): (request: AppRequest) => Promise<Response> {
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: BASE_HEADERS });
    const path = appPathOf(request.url);
    const requested = path === null ? null : resolveStaticPath(rendererDir, path);
    const file = requested && realFileInside(rendererDir, requested);
    if (!file) return notFound();
    try {
      if (!(await stat(file)).isFile()) return notFound();
      const body = request.method === "HEAD" ? null : await readFile(file);
      const headers = { ...BASE_HEADERS, "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" };
      return new Response(body, { status: 200, headers });
    } catch {
      return notFound();
    }
  };
}

/** Serves the renderer on the default session's app:// scheme. Call after `ready`. */
export function serveAppProtocol(rendererDir: string): void {
  const handler = createAppProtocolHandler(rendererDir);
  protocol.handle(APP_SCHEME, (request) => handler({ url: request.url, method: request.method }));
}
