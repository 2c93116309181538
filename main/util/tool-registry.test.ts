import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ChopinError } from "../../shared/errors.js";
import { defineTool, runTool, ToolRegistry } from "./tool-registry.js";

class OutsideError extends Error {}

const echo = defineTool({
  name: "echo",
  description: "Says the words back.",
  input: z.strictObject({ words: z.string().min(1).max(10) }),
  errors: ["too-large"],
  handler: async ({ words }: { words: string }, context: { prefix: string }) => {
    if (words === "big") throw new ChopinError("too-large", "That is too big to echo.", { limit: 3 });
    if (words === "outside") throw new OutsideError("the outside world broke");
    if (words === "crash") throw new TypeError("secret internals at line 12");
    return `${context.prefix}${words}`;
  },
});

const readOutside = (error: unknown) => (error instanceof OutsideError ? { code: "github-unavailable" as const, message: error.message } : null);

describe("the tool registry", () => {
  const registry = new ToolRegistry<{ prefix: string }>([echo], readOutside);

  it("parses input by the tool's schema before the handler runs, and answers a value", async () => {
    expect(await registry.run("echo", { words: "hi" }, { prefix: "> " })).toEqual({ ok: true, value: "> hi" });
  });

  it("refuses input the schema refuses, unknown fields included, as 'invalid-input' with the issues", async () => {
    const long = await registry.run("echo", { words: "x".repeat(11) }, { prefix: "" });
    expect(long).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(!long.ok && long.error.message).toMatch(/echo/);
    expect(await registry.run("echo", { words: "hi", extra: 1 }, { prefix: "" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await registry.run("echo", undefined, { prefix: "" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("keeps a typed refusal's code, words and details", async () => {
    expect(await registry.run("echo", { words: "big" }, { prefix: "" })).toEqual({
      ok: false,
      error: { code: "too-large", message: "That is too big to echo.", details: { limit: 3 } },
    });
  });

  it("reads the errors its reader knows, and turns anything else into 'internal' without the error's words", async () => {
    expect(await registry.run("echo", { words: "outside" }, { prefix: "" })).toEqual({ ok: false, error: { code: "github-unavailable", message: "the outside world broke" } });
    const crash = await registry.run("echo", { words: "crash" }, { prefix: "" });
    expect(crash).toMatchObject({ ok: false, error: { code: "internal" } });
    expect(JSON.stringify(crash)).not.toMatch(/secret internals|line 12/);
  });

  it("answers 'not-found' for a tool it does not hold", async () => {
    expect(await registry.run("rm -rf", {}, { prefix: "" })).toMatchObject({ ok: false, error: { code: "not-found" } });
  });

  it("lists each tool with its description and its input as JSON Schema", () => {
    expect(registry.names).toEqual(["echo"]);
    const [listed] = registry.list();
    expect(listed).toMatchObject({ name: "echo", description: "Says the words back." });
    expect(listed?.inputSchema).toMatchObject({ type: "object", properties: { words: { type: "string", minLength: 1, maxLength: 10 } }, required: ["words"], additionalProperties: false });
    expect(listed?.inputSchema).not.toHaveProperty("$schema");
  });

  it("refuses two tools with one name", () => {
    expect(() => new ToolRegistry([echo, echo])).toThrow(/Two tools are named echo/);
  });

  it("runs a single tool the same way outside a registry", async () => {
    expect(await runTool(echo, { words: "ok" }, { prefix: "" })).toEqual({ ok: true, value: "ok" });
    expect(await runTool(echo, { words: "outside" }, { prefix: "" })).toMatchObject({ ok: false, error: { code: "internal" } });
  });
});
