import { describe, expect, it } from "vitest";
import { DEFAULT_MCP_PORT, DEFAULT_UI_PORT } from "../../shared/defaults.js";
import { parseHostArgs } from "./cli-args.js";

describe("parseHostArgs", () => {
  it("reads every option", () => {
    const args = parseHostArgs(
      ["--headless", "--data-dir", "/d", "--relay", "ws://127.0.0.1:9/", "--relay-token=t", "--ui-port", "0", "--mcp-port", "65535", "--no-open"],
      {},
    );
    expect(args).toEqual({
      headless: true,
      dataDir: "/d",
      relayUrl: "ws://127.0.0.1:9",
      relayToken: "t",
      uiPort: 0,
      mcpPort: 65535,
      open: false,
      github: { clientId: null, apiBaseUrl: "https://api.github.com", webBaseUrl: "https://github.com" },
      githubToken: null,
      planner: { off: false },
      enableAgentChat: false,
    });
  });

  it("falls back to environment, then defaults", () => {
    expect(parseHostArgs([], { CHOPIN_DATA_DIR: "/e", CI: "true" })).toMatchObject({ dataDir: "/e", uiPort: DEFAULT_UI_PORT, mcpPort: DEFAULT_MCP_PORT, open: false });
  });

  it("reads the GitHub options from flags, then the environment", () => {
    const flags = ["--github-client-id", "Iv1.abc", "--github-api-url=http://127.0.0.1:5000", "--github-web-url", "http://127.0.0.1:5000/"];
    expect(parseHostArgs(flags, {}).github).toEqual({ clientId: "Iv1.abc", apiBaseUrl: "http://127.0.0.1:5000", webBaseUrl: "http://127.0.0.1:5000" });
    expect(parseHostArgs([], { CHOPIN_GITHUB_CLIENT_ID: "Iv1.env", CHOPIN_GITHUB_WEB_URL: "https://ghe.example" }).github).toEqual({
      clientId: "Iv1.env",
      apiBaseUrl: "https://api.github.com",
      webBaseUrl: "https://ghe.example",
    });
  });

  it("reads CHOPIN_GITHUB_TOKEN from the environment only, never from a flag (a command line shows in ps)", () => {
    expect(parseHostArgs([], { CHOPIN_GITHUB_TOKEN: "  github_pat_abc\n" }).githubToken).toBe("github_pat_abc");
    expect(parseHostArgs([], { CHOPIN_GITHUB_TOKEN: " " }).githubToken).toBeNull();
    expect(() => parseHostArgs(["--github-token", "github_pat_abc"], {})).toThrow(
      expect.objectContaining({ code: "invalid-input", message: expect.stringMatching(/Unknown option “--github-token”.*CHOPIN_GITHUB_TOKEN=TOKEN/s) }),
    );
    expect(() => parseHostArgs(["--github-token", "github_pat_abc"], {})).toThrow(expect.objectContaining({ message: expect.not.stringContaining("github_pat_abc") }));
  });

  it.each([
    [["--github-api-url", "http://ghe.example"], "https://"],
    [["--github-client-id", "a b"], "client id"],
    [["--github-web-url"], "needs a value"],
    [["--ui-port", "65536"], "port"],
    [["--ui-port", "-1"], "port"],
    [["--mcp-port", "abc"], "port"],
    [["--relay", "http://x"], "ws://"],
    [["--relay", "not a url"], "ws://"],
    [["--bogus"], "Unknown option"],
    [["--data-dir"], "needs a value"],
  ])("refuses %j with a sentence", (argv, words) => {
    expect(() => parseHostArgs(argv as string[], {})).toThrow(expect.objectContaining({ code: "invalid-input", message: expect.stringContaining(words) }));
  });
});
