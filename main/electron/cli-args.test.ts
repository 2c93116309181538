import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { parseElectronArgs } from "./cli-args.js";

describe("parseElectronArgs", () => {
  it("reads --data-dir in both forms, relative to the working folder", () => {
    expect(parseElectronArgs(["--data-dir", "/tmp/a"], "/w")).toEqual({ dataDir: "/tmp/a", github: {}, enableAgentChat: false });
    expect(parseElectronArgs(["--data-dir=rel/b"], "/w")).toEqual({ dataDir: resolve("/w", "rel/b"), github: {}, enableAgentChat: false });
  });

  it("ignores a missing or empty value and Chromium's own switches", () => {
    expect(parseElectronArgs(["--data-dir"], "/w")).toEqual({ dataDir: null, github: {}, enableAgentChat: false });
    expect(parseElectronArgs(["--data-dir="], "/w")).toEqual({ dataDir: null, github: {}, enableAgentChat: false });
    expect(parseElectronArgs(["--data-dir", "--no-sandbox"], "/w")).toEqual({ dataDir: null, github: {}, enableAgentChat: false });
    expect(parseElectronArgs([".", "--inspect=9229", "--enable-logging"], "/w")).toEqual({ dataDir: null, github: {}, enableAgentChat: false });
  });

  it("reads the GitHub options raw, in both forms", () => {
    const argv = [".", "--github-client-id", "Iv1.abc", "--github-api-url=http://127.0.0.1:5000", "--github-web-url", "http://127.0.0.1:5000"];
    expect(parseElectronArgs(argv, "/w").github).toEqual({ clientId: "Iv1.abc", apiUrl: "http://127.0.0.1:5000", webUrl: "http://127.0.0.1:5000" });
    expect(parseElectronArgs(["--github-client-id"], "/w").github).toEqual({});
  });

  it("reads --enable-agent-chat as on for this run", () => {
    expect(parseElectronArgs([".", "--enable-agent-chat"], "/w").enableAgentChat).toBe(true);
    expect(parseElectronArgs(["."], "/w").enableAgentChat).toBe(false);
  });
});
