/**
 * The Copilot runtime of the owner's app (issue #26): @github/copilot-sdk's bundled runtime in `mode: "empty"` under a
 * private base directory, started lazily by the first session (never at app start), offered nothing but our own tools.
 * Sessions are disposable: one per channel per credential revision (the turn runner decides when to make one afresh);
 * their SDK ids and files are never needed to continue.
 *
 * What must stay true:
 *  - no shell, filesystem, skills, plugins, instruction discovery, memory or built-in GitHub tool: mode "empty" plus
 *    `availableTools: ["custom:*"]` (mode "empty" alone does not remove built-in tools);
 *  - no client-level token and no logged-in-user fallback: a Copilot session gets its owner's token itself;
 *  - every tool call passes the permission gate first (the SDK's pre-tool-use hook); a denied call reaches no handler
 *    and yields no tool start or completion here, only a denial naming the failed check. Starts and completions are
 *    ours, made around the handler, never the SDK's events (the SDK emits a start even for a denied call);
 *  - a session's events are delivered in order, and `send` resolves when the turn is over (the SDK's idle).
 */
import { CopilotClient, RuntimeConnection, defineTool, type CopilotSession } from "@github/copilot-sdk";
import type { ZodType } from "zod";
import { mkdirSync } from "node:fs";

/** Where the Planner's model runs: Copilot on the owner's token, or an endpoint configured in Settings. */
export type PlannerProvider =
  | { type: "copilot"; model: string; gitHubToken: string }
  | { type: "openai" | "anthropic" | "azure"; model: string; baseUrl: string; apiKey: string };

export interface PlannerTool<T = unknown> {
  name: string;
  description: string;
  parameters: ZodType<T>;
  /**
   * What the model reads back: a JSON-serialisable value; `{ok: false, error: {code, message}}` is a refusal the model
   * reads and the transcript records as failed. Throwing tells the model only that the call failed.
   */
  handler(args: T): Promise<unknown>;
}

/** "code: message" of a tool result that refuses in the one tool convention, else null. */
function refusalOf(result: unknown): string | null {
  if (result === null || typeof result !== "object" || (result as { ok?: unknown }).ok !== false) return null;
  const error = (result as { error?: { code?: unknown; message?: unknown } }).error;
  return error && typeof error.code === "string" && typeof error.message === "string" ? `${error.code}: ${error.message}` : null;
}

export type GateAnswer = { allowed: true } | { allowed: false; check: string; reason: string };

export type PlannerEvent =
  | { type: "text-delta"; messageId: string; delta: string }
  | { type: "message"; messageId: string; content: string }
  | { type: "tool-start"; toolCallId: string; name: string; args: unknown }
  | { type: "tool-complete"; toolCallId: string; name: string; ok: boolean; error?: string }
  | { type: "tool-denied"; name: string; check: string; reason: string }
  | { type: "error"; message: string; statusCode?: number }
  | { type: "idle"; aborted: boolean };

export interface PlannerSessionOptions {
  provider: PlannerProvider;
  systemMessage: string;
  tools: PlannerTool<never>[];
  /** The permission gate, asked before every tool call. */
  gate(toolName: string, args: unknown): Promise<GateAnswer>;
  onEvent(event: PlannerEvent): void;
}

export interface CopilotRuntimeOptions {
  /** The runtime's own folder (COPILOT_HOME), private to this app's data. */
  baseDirectory: string;
  logLevel?: "none" | "error" | "warning" | "info" | "debug" | "all";
}

/** One disposable SDK session. */
export class PlannerSession {
  readonly #session: CopilotSession;
  #idle: { resolve(): void } | null = null;
  #discarded = false;

  constructor(session: CopilotSession, onEvent: (event: PlannerEvent) => void) {
    this.#session = session;
    session.on((event) => {
      const mapped = mapEvent(event as { type: string; data: Record<string, unknown> });
      if (mapped) onEvent(mapped);
      if (event.type === "session.idle") {
        this.#idle?.resolve();
        this.#idle = null;
      }
    });
  }

  /** Sends a turn's prompt; resolves once the turn is over (idle), whether it ended well, failed or was aborted. */
  async send(prompt: string): Promise<void> {
    if (this.#discarded) throw new Error("This Planner session was discarded.");
    const idle = new Promise<void>((resolve) => (this.#idle = { resolve }));
    await this.#session.send({ prompt });
    await idle;
  }

  /** Stops the running turn (an editor's abort); the turn's send resolves at the idle that follows. */
  async abort(): Promise<void> {
    await this.#session.abort();
  }

  /** Ends the session for good (credential change, reset, `/new`, ownership change, quit). */
  async discard(): Promise<void> {
    if (this.#discarded) return;
    this.#discarded = true;
    this.#idle?.resolve();
    await this.#session.abort().catch(() => undefined);
    await this.#session.disconnect().catch(() => undefined);
  }
}

export class CopilotRuntime {
  readonly #options: CopilotRuntimeOptions;
  #client: Promise<CopilotClient> | null = null;
  /** Sessions made and not discarded, so stop() ends them first. */
  readonly #sessions = new Set<PlannerSession>();

  constructor(options: CopilotRuntimeOptions) {
    this.#options = options;
  }

  /** Sessions made and not yet discarded. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** Whether the runtime process has been started (it is only on the first session). */
  get started(): boolean {
    return this.#client !== null;
  }

  async session(options: PlannerSessionOptions): Promise<PlannerSession> {
    const client = await this.#start();
    const tools = options.tools.map((tool) =>
      defineTool(tool.name, {
        description: tool.description,
        parameters: tool.parameters as never,
        skipPermission: true,
        handler: async (args: never, invocation) => {
          options.onEvent({ type: "tool-start", toolCallId: invocation.toolCallId, name: tool.name, args });
          try {
            const result = await tool.handler(args);
            // A refusal in the one tool convention ({ok: false, error: {code, message}}) reaches the model as it is
            // (a thrown error reaches it only as "Tool execution failed") and the transcript as a failed call.
            const refusal = refusalOf(result);
            options.onEvent({ type: "tool-complete", toolCallId: invocation.toolCallId, name: tool.name, ok: refusal === null, ...(refusal !== null ? { error: refusal } : {}) });
            return JSON.stringify(result);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            options.onEvent({ type: "tool-complete", toolCallId: invocation.toolCallId, name: tool.name, ok: false, error: message });
            throw error;
          }
        },
      }),
    );
    const { provider } = options;
    const sdkSession = await client.createSession({
      model: provider.model,
      ...(provider.type === "copilot" ? { gitHubToken: provider.gitHubToken } : { provider: { type: provider.type, wireApi: "completions", baseUrl: provider.baseUrl, apiKey: provider.apiKey } }),
      tools,
      availableTools: ["custom:*"],
      streaming: true,
      infiniteSessions: { enabled: false },
      systemMessage: { mode: "replace", content: options.systemMessage },
      hooks: {
        onPreToolUse: async (input: { toolName: string; toolArgs: unknown }) => {
          const answer = await options.gate(input.toolName, input.toolArgs).catch((error: unknown): GateAnswer => ({ allowed: false, check: "gate", reason: error instanceof Error ? error.message : String(error) }));
          if (answer.allowed) return { permissionDecision: "allow" as const };
          options.onEvent({ type: "tool-denied", name: input.toolName, check: answer.check, reason: answer.reason });
          return { permissionDecision: "deny" as const, permissionDecisionReason: `Refused by the ${answer.check} check: ${answer.reason}` };
        },
      },
    } as never);
    const session = new PlannerSession(sdkSession, options.onEvent);
    this.#sessions.add(session);
    const discard = session.discard.bind(session);
    session.discard = async () => {
      this.#sessions.delete(session);
      await discard();
    };
    return session;
  }

  /** Ends every session and the runtime process (app exit). A later session starts it again. */
  async stop(): Promise<void> {
    const starting = this.#client;
    this.#client = null;
    for (const session of [...this.#sessions]) await session.discard();
    if (!starting) return;
    const client = await starting.catch(() => null);
    await client?.stop().catch(() => client.forceStop());
  }

  #start(): Promise<CopilotClient> {
    if (!this.#client) {
      this.#client = (async () => {
        mkdirSync(this.#options.baseDirectory, { recursive: true, mode: 0o700 });
        const client = new CopilotClient({
          mode: "empty",
          baseDirectory: this.#options.baseDirectory,
          useLoggedInUser: false,
          connection: RuntimeConnection.forStdio({ env: {} }),
          logLevel: this.#options.logLevel ?? "error",
        } as never);
        await client.start();
        return client;
      })();
      this.#client.catch(() => (this.#client = null));
    }
    return this.#client;
  }
}

/** The SDK's events as the turn runner hears them; the SDK's own tool events are not used (see the header). */
function mapEvent(event: { type: string; data: Record<string, unknown> }): PlannerEvent | null {
  const data = event.data ?? {};
  switch (event.type) {
    case "assistant.message_delta":
      return { type: "text-delta", messageId: String(data.messageId), delta: String(data.deltaContent ?? "") };
    case "assistant.message":
      return { type: "message", messageId: String(data.messageId), content: String(data.content ?? "") };
    case "session.error":
      return { type: "error", message: String(data.message ?? "The model provider failed."), ...(typeof data.statusCode === "number" ? { statusCode: data.statusCode } : {}) };
    case "session.idle":
      return { type: "idle", aborted: data.aborted === true };
    default:
      // model.*, hook.*, usage and the rest: nothing the conversation shows.
      return null;
  }
}
