import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveStaticPath, serveStatic } from "./static-files.js";

// <tmp>/secret.txt sits beside the served folder <tmp>/root: no URL may reach it.
const base = mkdtempSync(join(tmpdir(), "chopin-static-"));
const root = join(base, "root");
mkdirSync(join(root, "assets"), { recursive: true });
writeFileSync(join(root, "index.html"), "<!doctype html>");
writeFileSync(join(base, "secret.txt"), "TOP SECRET");
symlinkSync(join(base, "secret.txt"), join(root, "assets", "linked.js"));
symlinkSync(base, join(root, "outside"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("static file paths", () => {
  it("maps / to index.html and assets inside the folder", () => {
    expect(resolveStaticPath(root, "/")).toBe(join(root, "index.html"));
    expect(resolveStaticPath(root, "/assets/app.js?v=1")).toBe(join(root, "assets", "app.js"));
  });

  it.each(["/../etc/passwd", "/%2e%2e/etc/passwd", "/assets/..%2f..%2fsecret", "/..\\secret", "/a%00b", "/%E0%A4%A"])(
    "refuses %s",
    (path) => {
      expect(resolveStaticPath(root, path)).toBeNull();
    },
  );
});

describe("serveStatic over HTTP", () => {
  const server = createServer((req, res) => serveStatic(root, req, res));
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves the page with its CSP, no sniffing and no framing", async () => {
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it.each(["/assets/linked.js", "/outside/secret.txt"])("refuses %s, a symlink leading out of the folder", async (path) => {
    const res = await fetch(`${url}${path}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("TOP SECRET");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});
