import { describe, expect, it } from "vitest";
import { DEFAULT_GITHUB_API_URL, DEFAULT_GITHUB_WEB_URL, parseGitHubConfig } from "./github-config.js";

describe("parseGitHubConfig", () => {
  it("defaults to github.com and no client id (sign-in not configured)", () => {
    expect(parseGitHubConfig({}, {})).toEqual({ clientId: null, apiBaseUrl: DEFAULT_GITHUB_API_URL, webBaseUrl: DEFAULT_GITHUB_WEB_URL });
    expect(parseGitHubConfig({ clientId: "  " }, {})).toMatchObject({ clientId: null });
  });

  it("takes flags over the environment, and trims trailing slashes", () => {
    const env = { CHOPIN_GITHUB_CLIENT_ID: "Iv1.env", CHOPIN_GITHUB_API_URL: "https://ghe.example/api/v3/", CHOPIN_GITHUB_WEB_URL: "https://ghe.example" };
    expect(parseGitHubConfig({}, env)).toEqual({ clientId: "Iv1.env", apiBaseUrl: "https://ghe.example/api/v3", webBaseUrl: "https://ghe.example" });
    expect(parseGitHubConfig({ clientId: "Iv1.flag", apiUrl: "http://127.0.0.1:9999" }, env)).toEqual({
      clientId: "Iv1.flag",
      apiBaseUrl: "http://127.0.0.1:9999",
      webBaseUrl: "https://ghe.example",
    });
  });

  it("allows plain http only to this computer", () => {
    expect(parseGitHubConfig({ webUrl: "http://localhost:8080/" }, {}).webBaseUrl).toBe("http://localhost:8080");
    expect(parseGitHubConfig({ webUrl: "http://[::1]:8080" }, {}).webBaseUrl).toBe("http://[::1]:8080");
  });

  it.each([
    [{ apiUrl: "http://ghe.example" }, "https://"],
    [{ webUrl: "ftp://127.0.0.1" }, "https://"],
    [{ webUrl: "not a url" }, "https://"],
    [{ apiUrl: "https://user:pw@ghe.example" }, "https://"],
    [{ clientId: "has space" }, "client id"],
    [{ clientId: "x".repeat(101) }, "client id"],
  ])("refuses %j with a sentence", (input, words) => {
    expect(() => parseGitHubConfig(input, {})).toThrow(expect.objectContaining({ code: "invalid-input", message: expect.stringContaining(words) }));
  });

  it("accepts a client id at its length bound", () => {
    expect(parseGitHubConfig({ clientId: "x".repeat(100) }, {}).clientId).toHaveLength(100);
  });
});
