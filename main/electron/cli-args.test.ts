import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { parseElectronArgs } from "./cli-args.js";

describe("parseElectronArgs", () => {
  it("reads --data-dir in both forms, relative to the working folder", () => {
    expect(parseElectronArgs(["--data-dir", "/tmp/a"], "/w")).toEqual({ dataDir: "/tmp/a" });
    expect(parseElectronArgs(["--data-dir=rel/b"], "/w")).toEqual({ dataDir: resolve("/w", "rel/b") });
  });

  it("ignores a missing or empty value and Chromium's own switches", () => {
    expect(parseElectronArgs(["--data-dir"], "/w")).toEqual({ dataDir: null });
    expect(parseElectronArgs(["--data-dir="], "/w")).toEqual({ dataDir: null });
    expect(parseElectronArgs(["--data-dir", "--no-sandbox"], "/w")).toEqual({ dataDir: null });
    expect(parseElectronArgs([".", "--inspect=9229", "--enable-logging"], "/w")).toEqual({ dataDir: null });
  });
});
