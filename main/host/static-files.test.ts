import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStaticPath } from "./static-files.js";

describe("static file paths", () => {
  const root = mkdtempSync(join(tmpdir(), "chopin-static-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), "<!doctype html>");

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
