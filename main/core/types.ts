/**
 * The app core as the shells see it. Host mode (main/host/) and the Electron shell (main/electron/) both build one
 * AppCore and bridge `api` and `events` to a renderer; neither reaches past this interface.
 */
import type { NetworkAdapterInterface, Repo } from "@automerge/automerge-repo";
import type { AuthState, ChopinApi, ChopinEvents } from "../../shared/api.js";
import type { OsCipher } from "../github/secret-vault.js";
import type { StablePortStart } from "../store/stable-port.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import type { FencedWriter } from "../planner/fenced-writer.js";
import type { ConversationService } from "../conversations/conversation-service.js";
import type { DocumentService } from "../documents/document-service.js";
import type { PlannerOwnership } from "../planner/planner-ownership.js";

export interface AppCoreOptions {
  /** Folder for everything this installation keeps: SQLite files, mcp-config.json. */
  dataDir: string;
  /** Relay to sync shared documents through: when given, stored as the relay setting (as if typed in Settings), so
   * later launches without the flags keep using it. */
  relayUrl?: string;
  relayToken?: string;
  /** Port for the MCP server on 127.0.0.1; 0 picks a free one. Default: DEFAULT_MCP_PORT. */
  mcpPort?: number;
  /** The Chopin GitHub App's OAuth client id; without it GitHub sign-in is 'not-configured'. */
  githubClientId?: string | null;
  /** GitHub REST base (default https://api.github.com) and web/OAuth base (default https://github.com). */
  githubApiUrl?: string;
  githubWebUrl?: string;
  /**
   * A GitHub user access token to sign in with at start (host mode reads CHOPIN_GITHUB_TOKEN), checked with GET /user
   * on githubApiUrl and held in memory only; works without githubClientId. A refused token leaves the core signed
   * out with the reason in the auth state's lastError; it never stops the core.
   */
  githubToken?: string | null;
  /** OS encryption for a saved sign-in (Electron's safeStorage); absent in host mode, where only consent saves it. */
  osCipher?: OsCipher | null;
  /**
   * Hears the first of a run of failed writes to chopin.db (disk full, read-only, locked), as a sentence. The core
   * keeps running and refuses to report those edits saved; host mode prints it, Electron logs it.
   */
  onStorageFault?: (sentence: string) => void;
  /**
   * The Planner on this app (issue #26): a configured model provider (else Copilot on the signed-in person's token),
   * the Copilot model, and `off` (AGENT=off): no claim, no runtime, no turn. `turns: false` keeps ownership and fenced
   * writes but runs no turn: for tests of ownership alone, which must not reach for a model.
   */
  planner?: { provider?: { type: "openai" | "anthropic" | "azure"; baseUrl: string; model: string; apiKey: string }; copilotModel?: string; off?: boolean; turns?: boolean };
  /** Agent chat on for this run whatever Settings say (host mode: --enable-agent-chat or CHOPIN_ENABLE_AGENT_CHAT=1). */
  enableAgentChat?: boolean;
  /** Planner lease timing of this app (tests shorten it; the relay's lease length is the relay's own). */
  plannerLease?: { renewEveryMs?: number; stopMarginMs?: number; localTtlMs?: number };
}

export interface AppCore {
  readonly api: ChopinApi;
  readonly events: TypedEmitter<ChopinEvents>;
  /** The core's Repo: the renderer's replica syncs with it. */
  readonly repo: Repo;
  /** Connects a renderer replica. Renderer peers may read every document, private ones included. */
  attachRendererAdapter(adapter: NetworkAdapterInterface): void;
  /**
   * Resolves, never rejects, once the start's GitHub sign-in has settled (the supplied token checked, or a saved
   * sign-in restored, or neither to do), with the auth state then. Nothing in the core waits for it.
   */
  gitHubSignInSettled(): Promise<AuthState>;
  /** What a person should hear about this start (a repair done on the way), as sentences; empty as a rule. */
  readonly startupNotes: readonly string[];
  /** portChangedFrom: the port the previous launch published when this one could not use it (else null). */
  readonly mcp: { url: string; port: number; configPath: string; portChangedFrom: number | null };
  /**
   * Starts a shell's own local server (host mode's UI: name "ui") on this installation's stable port
   * (main/store/stable-port.ts), remembered in the core's settings.
   */
  listenOnStablePort<T extends { port: number }>(name: "ui", requested: number, listen: (port: number) => Promise<T>): Promise<StablePortStart<T>>;
  /**
   * What the Planner runtime builds on (issue #25; the runtime is issue #26's): fenced writes to a channel's plan or
   * conversation, and the ownership they are fenced by.
   */
  readonly planner: {
    readonly writes: FencedWriter;
    readonly ownership: PlannerOwnership;
    readonly entry: ConversationService["plannerEntry"];
    readonly documents: Pick<DocumentService, "getContent" | "updateMarkdown" | "setRepository" | "importDocument">;
    /** Whether the Copilot runtime process has been started (only a Planner turn starts it). */
    runtimeStarted(): boolean;
    /** Planner sessions alive now (each ends on reset, `/new`, a credential refresh, sign-out, quit). */
    runtimeSessions(): number;
    /** Whether this app's turn loop works in the plan now (a turn, a `/new`), or has returned until the next poke. */
    turnsBusy(planId: string): boolean;
  };
  /** Flushes storage and stops every server and connection. Safe to call twice. */
  close(): Promise<void>;
}
