import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

const electron = vi.hoisted(() => ({ registered: [] as unknown[], handled: [] as unknown[] }));
vi.mock("electron", () => ({
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => electron.registered.push(...schemes),
    handle: (scheme: string, handler: unknown) => electron.handled.push({ scheme, handler }),
  },
}));

const { appPathOf, createAppProtocolHandler, registerAppScheme, serveAppProtocol } = await import("./app-protocol.js");
const { APP_CSP } = await import("./app-origin.js");

// <tmp>/secret.txt sits beside the renderer folder <tmp>/renderer: no URL may reach it.
const base = mkdtempSync(join(tmpdir(), "chopin-app-protocol-"));
const rendererDir = join(base, "renderer");
mkdirSync(join(rendererDir, "assets"), { recursive: true });
writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Chopin</title>");
writeFileSync(join(rendererDir, "assets", "app.js"), "console.log('hi')");
writeFileSync(join(rendererDir, "assets", "automerge.wasm"), Buffer.from([0, 97, 115, 109]));
writeFileSync(join(base, "secret.txt"), "TOP SECRET");
// A symlink inside the renderer folder that leads out of it.
symlinkSync(join(base, "secret.txt"), join(rendererDir, "assets", "linked.js"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const handler = createAppProtocolHandler(rendererDir);
const get = (url: string, method = "GET") => handler({ url, method });

describe("app:// protocol handler", () => {
  it("serves the renderer's files with their type and the CSP", async () => {
    const index = await get("app://chopin/index.html");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toBe(APP_CSP);
    expect(await index.text()).toContain("<title>Chopin</title>");
    expect((await get("app://chopin/")).status).toBe(200);
    expect((await get("app://chopin/assets/app.js?v=1")).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await get("app://chopin/assets/automerge.wasm")).headers.get("content-type")).toBe("application/wasm");
  });

  it.each([
    "app://chopin/../secret.txt",
    "app://chopin/assets/../../secret.txt",
    "app://chopin/%2e%2e/secret.txt",
    "app://chopin/%2E%2E/secret.txt",
    "app://chopin/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
    "app://chopin/..%2fsecret.txt",
    "app://chopin/..%5csecret.txt",
    "app://chopin/%2e%2e%5csecret.txt",
    `app://chopin/${encodeURIComponent(join(base, "secret.txt"))}`,
    `app://chopin/${join(base, "secret.txt")}`,
    `app://chopin//${join(base, "secret.txt")}`,
    "app://chopin/%00index.html",
    "app://chopin/%E0%A4%A",
    "app://chopin/assets/linked.js",
  ])("refuses %s with a 404 and never the file outside", async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("TOP SECRET");
    expect(response.headers.get("content-security-policy")).toBe(APP_CSP);
  });

  it.each(["app://chopin.evil/index.html", "app://other/index.html", "app://chopin:8080/index.html", "https://chopin/index.html"])(
    "refuses the foreign host %s",
    async (url) => {
      expect((await get(url)).status).toBe(404);
    },
  );

  it("answers HEAD without a body and refuses writes", async () => {
    const head = await get("app://chopin/index.html", "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await get("app://chopin/index.html", "POST")).status).toBe(405);
  });

  it("answers a folder or a missing file with 404", async () => {
    expect((await get("app://chopin/assets")).status).toBe(404);
    expect((await get("app://chopin/nope.js")).status).toBe(404);
  });

  it("extracts only app://chopin paths", () => {
    expect(appPathOf("app://chopin")).toBe("/");
    expect(appPathOf("APP://CHOPIN/x")).toBe("/x");
    expect(appPathOf("app://chopinx/x")).toBeNull();
  });
});

describe("scheme registration", () => {
  it("registers app:// as a standard, secure scheme and serves it", async () => {
    registerAppScheme();
    expect(electron.registered).toEqual([
      { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
    serveAppProtocol(rendererDir);
    const { scheme, handler: installed } = electron.handled[0] as { scheme: string; handler: (r: { url: string; method: string }) => Promise<Response> };
    expect(scheme).toBe("app");
    expect((await installed({ url: "app://chopin/index.html", method: "GET" })).status).toBe(200);
    expect((await installed({ url: "app://chopin/../secret.txt", method: "GET" })).status).toBe(404);
  });
});
