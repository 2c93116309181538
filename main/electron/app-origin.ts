/**
 * Where the renderer lives and what it may load. The window loads only app://chopin/ (built files) or, in
 * `electron-vite dev`, the dev server's origin; every navigation, IPC sender and permission check compares against
 * this one definition. Node's URL gives "null" as the origin of non-special schemes, so origins are built from
 * protocol and host, never read from URL.origin.
 */
export const APP_SCHEME = "app";
export const APP_HOST = "chopin";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Built-app CSP: scripts and wasm only from the app itself, no network at all (the core does the networking). */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Dev-server CSP: Vite's HMR needs its websocket and the React refresh preamble's inline script. */
export function devCsp(devOrigin: string): string {
  const ws = devOrigin.replace(/^http/, "ws");
  return APP_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", `connect-src 'self' ${ws}`);
}

/** "scheme://host[:port]" of a URL, or null when it does not parse. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (!u.host) return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/** The origins the window may show: the app itself, plus the dev server when one is in use. */
export function trustedOrigins(devServerUrl: string | null): string[] {
  const dev = devServerUrl ? originOf(devServerUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

export function isTrustedUrl(url: string, origins: readonly string[]): boolean {
  const origin = originOf(url);
  return origin !== null && origins.includes(origin);
}

/** Only web links leave the app, and only to the OS browser. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}
