import { describe, expect, it } from "vitest";
import { APP_CSP, APP_ORIGIN, devCsp, isExternalWebUrl, isTrustedUrl, originOf, trustedOrigins } from "./app-origin.js";

describe("app origin", () => {
  it("builds origins from scheme and host (Node gives 'null' for custom schemes)", () => {
    expect(originOf("app://chopin/index.html#/x")).toBe(APP_ORIGIN);
    expect(originOf("http://localhost:5173/src/main.tsx")).toBe("http://localhost:5173");
    expect(originOf("about:blank")).toBeNull();
    expect(originOf("garbage")).toBeNull();
  });

  it("trusts the dev server only when one is given", () => {
    expect(trustedOrigins(null)).toEqual([APP_ORIGIN]);
    expect(trustedOrigins("http://localhost:5173/")).toEqual([APP_ORIGIN, "http://localhost:5173"]);
    expect(isTrustedUrl("http://localhost:5174/", trustedOrigins("http://localhost:5173/"))).toBe(false);
  });

  it("sends only http(s) links out", () => {
    expect(isExternalWebUrl("https://a.example/")).toBe(true);
    expect(isExternalWebUrl("file:///etc/passwd")).toBe(false);
    expect(isExternalWebUrl("ms-settings:")).toBe(false);
  });

  it("keeps the built-app CSP strict and relaxes only what Vite's dev server needs", () => {
    expect(APP_CSP).toContain("default-src 'none'");
    expect(APP_CSP).not.toContain(" 'unsafe-eval'");
    expect(APP_CSP).not.toMatch(/script-src[^;]*unsafe-inline/);
    const dev = devCsp("http://localhost:5173");
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
    expect(dev).toMatch(/script-src 'self' 'unsafe-inline'/);
  });
});
