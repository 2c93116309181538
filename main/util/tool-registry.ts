/**
 * One registry of tools (issue #24): a tool is defined once, with its name, its description, its zod input, the error
 * codes it may refuse with (from the one ERROR_CODES union), and its handler; adapters expose a registry to agents over
 * MCP (main/mcp/) and, later, to the Planner's runtime. Every call answers in one convention: `{ ok: true, value }` or
 * `{ ok: false, error }` with an ErrorShape (a code and a sentence), never a throw.
 *
 * What must stay true: a tool's input is parsed by its schema before its handler runs (unknown fields refused by the
 * schema itself); a refusal the handler throws keeps its code and words; anything unexpected becomes 'internal'
 * without a stack trace; an unknown tool name is 'not-found'.
 */
import { z } from "zod";
import { ChopinError, toErrorShape, type ErrorCode, type ErrorShape } from "../../shared/errors.js";
import { issueWords } from "./issue-words.js";

export interface ToolDefinition<C, I = never, R = unknown> {
  readonly name: string;
  /** What the tool does, for the agent or model choosing it. */
  readonly description: string;
  readonly input: z.ZodType<I>;
  /** The refusals a call may answer besides 'invalid-input' (bad input) and 'internal'. */
  readonly errors: readonly ErrorCode[];
  handler(input: I, context: C): Promise<R>;
}

export type ToolOutcome<R> = { ok: true; value: R } | { ok: false; error: ErrorShape };

export function defineTool<C, I, R>(definition: ToolDefinition<C, I, R>): ToolDefinition<C, I, R> {
  return definition;
}

/** What a tool's failure says, when the registry knows a kind of error its tools throw (e.g. GitHub's). */
export type ErrorReader = (error: unknown) => ErrorShape | null;

/** A tool of any input type: the registry checks input against each tool's own schema before its handler sees it. */
export type AnyTool<C> = ToolDefinition<C, any, unknown>;

/** Runs one tool on raw input: parsed by its schema, then its handler; every outcome as a value. */
export async function runTool<C, I, R>(tool: ToolDefinition<C, I, R>, input: unknown, context: C, readError: ErrorReader = () => null): Promise<ToolOutcome<R>> {
  const parsed = tool.input.safeParse(input ?? {});
  if (!parsed.success) {
    const { issues, sentence } = issueWords(parsed.error.issues, `The arguments to ${tool.name} are not valid`, "the arguments");
    return { ok: false, error: { code: "invalid-input", message: sentence, details: { issues } } };
  }
  try {
    return { ok: true, value: await tool.handler(parsed.data, context) };
  } catch (error) {
    if (error instanceof ChopinError) return { ok: false, error: toErrorShape(error) };
    const read = readError(error);
    if (read) return { ok: false, error: read };
    return { ok: false, error: { code: "internal", message: `The tool ${tool.name} failed unexpectedly.` } };
  }
}

export class ToolRegistry<C> {
  readonly #tools = new Map<string, AnyTool<C>>();

  constructor(
    tools: readonly AnyTool<C>[],
    private readonly readError: ErrorReader = () => null,
  ) {
    for (const tool of tools) {
      if (this.#tools.has(tool.name)) throw new Error(`Two tools are named ${tool.name}.`);
      this.#tools.set(tool.name, tool);
    }
  }

  get names(): string[] {
    return [...this.#tools.keys()];
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  get(name: string): AnyTool<C> | undefined {
    return this.#tools.get(name);
  }

  /** Name, description and JSON Schema of each tool's input, as an agent or a model lists them. */
  list(): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
    return [...this.#tools.values()].map((tool) => {
      const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
      return { name: tool.name, description: tool.description, inputSchema };
    });
  }

  async run(name: string, input: unknown, context: C): Promise<ToolOutcome<unknown>> {
    const tool = this.#tools.get(name);
    if (!tool) return { ok: false, error: { code: "not-found", message: `There is no tool named ${JSON.stringify(name).slice(0, 80)}.` } };
    return runTool(tool, input, context, this.readError);
  }
}
