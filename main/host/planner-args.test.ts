import { describe, expect, it } from "vitest";
import { parseHostArgs } from "./cli-args.js";

const env = { CHOPIN_PLANNER_API_KEY: "sk-test" };

describe("the Planner's command line", () => {
  it("takes a provider from flags, the key from the environment, and AGENT=off", () => {
    const args = parseHostArgs(["--planner-provider", "openai", "--planner-base-url", "http://127.0.0.1:9/v1", "--planner-model", "gpt"], env);
    expect(args.planner).toEqual({ off: false, provider: { type: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "gpt", apiKey: "sk-test" } });
    expect(parseHostArgs([], { AGENT: "off" }).planner).toEqual({ off: true });
    expect(parseHostArgs([], {}).planner).toEqual({ off: false });
  });

  it("takes the same from CHOPIN_PLANNER_* variables", () => {
    const args = parseHostArgs([], { ...env, CHOPIN_PLANNER_PROVIDER: "anthropic", CHOPIN_PLANNER_BASE_URL: "https://example.test", CHOPIN_PLANNER_MODEL: "m" });
    expect(args.planner.provider).toMatchObject({ type: "anthropic", model: "m" });
  });

  it("refuses a partial or unknown provider, and a missing key, with a sentence", () => {
    expect(() => parseHostArgs(["--planner-provider", "llama"], env)).toThrow(/openai, anthropic, azure/);
    expect(() => parseHostArgs(["--planner-provider", "openai", "--planner-model", "m"], env)).toThrow(/--planner-base-url/);
    expect(() => parseHostArgs(["--planner-provider", "openai", "--planner-base-url", "http://x/v1", "--planner-model", "m"], {})).toThrow(/CHOPIN_PLANNER_API_KEY/);
  });
});
