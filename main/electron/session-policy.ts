/**
 * Session-wide refusals: no permission is granted to any page (camera, notifications, geolocation, ...), except
 * clipboard writes from the app's own origin so "copy this command" buttons work; and every response that passes
 * through webRequest gets the CSP header, replacing whatever the server said (the dev server sends none).
 */
import type { Session } from "electron";
import { isTrustedUrl } from "./app-origin.js";

/** Writing to the clipboard is the one capability the UI needs; reading it stays denied. */
export const ALLOWED_PERMISSIONS: readonly string[] = ["clipboard-sanitized-write"];

export type SessionLike = Pick<Session, "setPermissionRequestHandler" | "setPermissionCheckHandler" | "webRequest">;

export function isPermissionAllowed(permission: string, requestingUrl: string, origins: readonly string[]): boolean {
  return ALLOWED_PERMISSIONS.includes(permission) && isTrustedUrl(requestingUrl, origins);
}

export function applySessionPolicy(session: SessionLike, options: { origins: readonly string[]; csp: string }): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, options.origins));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin, options.origins));
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== "content-security-policy") headers[name] = value;
    }
    headers["Content-Security-Policy"] = [options.csp];
    callback({ responseHeaders: headers });
  });
}
