import { describe, expect, it } from "vitest";
import { APP_CSP, APP_ORIGIN } from "./app-origin.js";
import { applySessionPolicy, isPermissionAllowed } from "./session-policy.js";

type RequestHandler = (wc: unknown, permission: string, cb: (granted: boolean) => void, details: { requestingUrl: string }) => void;
type CheckHandler = (wc: unknown, permission: string, origin: string) => boolean;
type HeadersAnswer = { responseHeaders: Record<string, string[]> };
type HeadersHandler = (details: { responseHeaders?: Record<string, string[]> }, cb: (answer: HeadersAnswer) => void) => void;

interface FakeSession {
  request: RequestHandler | null;
  check: CheckHandler | null;
  headers: HeadersHandler | null;
}

function fakeSession(): FakeSession {
  const s: FakeSession = { request: null, check: null, headers: null };
  const session = {
    setPermissionRequestHandler: (fn: RequestHandler) => void (s.request = fn),
    setPermissionCheckHandler: (fn: CheckHandler) => void (s.check = fn),
    webRequest: { onHeadersReceived: (fn: HeadersHandler) => void (s.headers = fn) },
  };
  applySessionPolicy(session as never, { origins: [APP_ORIGIN], csp: APP_CSP });
  return s;
}

function requestPermission(s: FakeSession, permission: string, url: string): boolean {
  let granted: boolean | undefined;
  s.request!(null, permission, (g) => (granted = g), { requestingUrl: url });
  if (granted === undefined) throw new Error("the handler did not answer");
  return granted;
}

describe("session policy", () => {
  it.each(["media", "geolocation", "notifications", "clipboard-read", "openExternal", "fullscreen", "hid", "unknown"])(
    "denies the %s permission even to the app",
    (permission) => {
      const s = fakeSession();
      expect(requestPermission(s, permission, `${APP_ORIGIN}/index.html`)).toBe(false);
      expect(s.check!(null, permission, APP_ORIGIN)).toBe(false);
    },
  );

  it("allows clipboard writes to the app's own origin only", () => {
    const s = fakeSession();
    expect(requestPermission(s, "clipboard-sanitized-write", `${APP_ORIGIN}/index.html`)).toBe(true);
    expect(requestPermission(s, "clipboard-sanitized-write", "https://evil.example/")).toBe(false);
    expect(isPermissionAllowed("clipboard-sanitized-write", "app://chopin.evil/", [APP_ORIGIN])).toBe(false);
  });

  it("puts the CSP on every response, replacing any policy the server sent", () => {
    const s = fakeSession();
    let answer: HeadersAnswer | undefined;
    s.headers!({ responseHeaders: { "content-security-policy": ["default-src *"], "Content-Type": ["text/html"] } }, (r) => (answer = r));
    expect(answer!.responseHeaders).toEqual({ "Content-Type": ["text/html"], "Content-Security-Policy": [APP_CSP] });
    s.headers!({}, (r) => (answer = r));
    expect(answer!.responseHeaders).toEqual({ "Content-Security-Policy": [APP_CSP] });
  });
});
