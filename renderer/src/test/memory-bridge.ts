/**
 * Test double of the core for store and component tests: the ChopinApi contract kept in memory, with the same
 * refusals the contract documents (delete only archived, rename only live, share only private and only with a relay
 * configured, not-found). It records calls so tests
 * can check what the UI asked for. Real bridging is tested in bridge/socket-bridge.test.ts.
 */
import type {
  ApiMethod,
  AuthState,
  ChopinApi,
  ChopinBridge,
  ChopinEvents,
  ConversationEntryView,
  DocumentDetail,
  DocumentSnapshot,
  EventName,
  GitHubInstallation,
  GitHubRepositorySummary,
  McpConnectionInfo,
  Settings,
  SyncStatus,
  VersionEntry,
} from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_MARKDOWN_BYTES } from "../../../shared/limits.js";
import type { Repo } from "@automerge/automerge-repo";
import { next as A } from "@automerge/automerge";
import { base64ToBytes, bytesToBase64 } from "../replica/base64.js";
import { firstHeadingText } from "../../../shared/markdown-headings.js";
import { checkArguments } from "../../../shared/api-arguments.js";
import { memoryConversations, type MemoryConversations } from "./memory-conversations.js";
import { memoryPlanner, type MemoryPlanner } from "./memory-planner.js";
import { memoryAgents, type MemoryAgents } from "./memory-agents.js";
import { memoryAgentChat } from "./memory-agent-chat.js";

/** The core's refusal to share without a team relay (main/documents/share-guard.ts), in its shape. */
const noRelay = () => new ChopinError("no-relay", "No team relay is configured, so this document cannot be shared yet.");

export interface MemoryBridge extends ChopinBridge {
  calls: { method: string; args: unknown[] }[];
  docs: Map<string, DocumentDetail>;
  versions: Map<string, VersionEntry[]>;
  /** What openSnapshot answers per id (absent: null). */
  snapshots: Map<string, DocumentSnapshot>;
  /** While set, openSnapshot waits for it (tests decide when the snapshot arrives). */
  snapshotGate: Promise<void> | null;
  /** Whether readSavedDocument hands over the document's bytes (true) or says nothing is stored (false). */
  savedDocuments: boolean;
  /** While set, readSavedDocument waits for it (holds the window's replica load). */
  savedGate: Promise<void> | null;
  settings: Settings;
  sync: SyncStatus;
  auth: AuthState;
  installations: GitHubInstallation[];
  repositories: Map<number, GitHubRepositorySummary[]>;
  /** Plays GitHub approving the shown code: the core announces the signed-in state. */
  completeSignIn(login: string, name?: string): void;
  emit<E extends EventName>(event: E, payload: ChopinEvents[E]): void;
  /** The entries of a plan's conversation, oldest first (tests add others' messages through `receive`). */
  conversations(id: string): ConversationEntryView[];
  receiveMessage: MemoryConversations["receive"];
  /** Plays another app taking the Planner in a plan (or nobody holding it: null), as the keeper would push it. */
  setPlannerOwner: MemoryPlanner["setOwner"];
  /** The agent profiles and the agent-chat switch (memory-agents.ts): tests play the command line and teammates. */
  agents: MemoryAgents;
  /** Makes the next call of `method` fail with this error. */
  failNext(method: keyof ChopinApi, error: ChopinError): void;
}

/** With `repo`, created documents are real Automerge documents in that Repo (the "core" side of linkedRepos). */
export function createMemoryBridge(repo?: Repo): MemoryBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const failures = new Map<string, ChopinError>();
  let counter = 0;
  let clock = 1_700_000_000_000;
  const bridge = {} as MemoryBridge;
  const docs = new Map<string, DocumentDetail>();
  const summary = (d: DocumentDetail) => ({
    id: d.id,
    title: d.title,
    createdVia: d.createdVia,
    archivedAt: d.archivedAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    shared: d.shared,
    ...(d.arriving ? { arriving: d.arriving } : {}),
  });
  const need = (id: string) => {
    const d = docs.get(id);
    if (!d) throw new ChopinError("not-found", "That document does not exist.");
    return d;
  };
  const touch = (d: DocumentDetail, patch: Partial<DocumentDetail>) => {
    // A change is a new revision, as in the core (a referenced document then reads as changed since).
    Object.assign(d, patch, { updatedAt: ++clock, revision: `r${clock}` });
    bridge.emit("documents-changed", { ids: [d.id] });
    return d;
  };
  const conversations = memoryConversations({
    plan: need,
    person: () => ({ kind: "person", name: bridge.settings.displayName, device: "device-memory" }),
    now: () => ++clock,
    changed: (documentId) => bridge.emit("conversation-changed", { documentId }),
  });
  bridge.conversations = conversations.entriesOf;
  bridge.receiveMessage = conversations.receive;
  const planner = memoryPlanner({
    plan: need,
    login: () => (bridge.auth.state === "signed-in" ? (bridge.auth.login ?? null) : null),
    personName: () => bridge.settings.displayName,
    conversations,
    changed: (state) => bridge.emit("planner-changed", state),
    settingsChanged: (settings) => bridge.emit("planner-settings-changed", settings),
  });
  bridge.setPlannerOwner = planner.setOwner;
  const agents = memoryAgents({
    now: () => ++clock,
    settingsChanged: (settings) => bridge.emit("experimental-settings-changed", settings),
    agentsChanged: (list) => bridge.emit("agents-changed", list),
    sidebarChanged: (sidebar) => bridge.emit("agent-sidebar-changed", sidebar),
  });
  bridge.agents = agents;
  const api: ChopinApi = {
    async listDocuments(query) {
      const archived = query?.archived ?? false;
      const q = query?.query?.toLowerCase();
      return [...docs.values()]
        // An agent chat's own plan is listed under Agents, never among plans (as in the core).
        .filter((d) => !d.agentChat && (d.archivedAt !== null) === archived && (!q || d.title.toLowerCase().includes(q)))
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .map(summary);
    },
    async getDocument(id) {
      return { ...need(id) };
    },
    async createDocument(input) {
      if (input.shared === true && !bridge.settings.relayUrl) throw noRelay();
      const title = input.title ?? DEFAULT_DOCUMENT_TITLE;
      const handle = repo?.create({ schemaVersion: 1, kind: "plan", title, text: input.markdown ?? "", authors: {} });
      const id = handle ? handle.documentId : `doc${++counter}`;
      const d: DocumentDetail = {
        id,
        url: handle ? handle.url : `automerge:${id}`,
        title,
        createdVia: "app",
        archivedAt: null,
        createdAt: ++clock,
        updatedAt: clock,
        shared: input.shared ?? bridge.settings.relayUrl !== null,
        repository: null,
        provenance: null,
        brief: null,
        revision: "r0",
      };
      docs.set(id, d);
      bridge.emit("documents-changed", { ids: [id] });
      return { ...d };
    },
    async renameDocument(id, title) {
      if (!title.trim()) throw new ChopinError("invalid-input", "A title cannot be empty.");
      if (need(id).archivedAt !== null) throw new ChopinError("document-archived", "This document is archived; restore it to edit.");
      return summary(touch(need(id), { title }));
    },
    async archiveDocument(id) {
      return summary(touch(need(id), { archivedAt: ++clock }));
    },
    async restoreDocument(id) {
      return summary(touch(need(id), { archivedAt: null }));
    },
    async deleteDocument(id) {
      if (need(id).archivedAt === null) throw new ChopinError("document-not-archived", "Archive the document before deleting it.");
      docs.delete(id);
      bridge.emit("documents-changed", { ids: [id] });
    },
    // Nothing is stored damaged in memory (a test makes getDocument refuse); the checks are the core's.
    async restoreDamagedFromTeam(id) {
      if (!bridge.settings.relayUrl) throw new ChopinError("no-relay", "No team relay is configured, so there is no team copy to fetch.");
      if (!need(id).shared) throw new ChopinError("not-shared", "That document is private to this device.");
      return { ...need(id) };
    },
    async shareDocument(id) {
      if (!bridge.settings.relayUrl) throw noRelay();
      if (need(id).shared) throw new ChopinError("already-shared", "This document is already shared.");
      return summary(touch(need(id), { shared: true }));
    },
    async waitSaved(id) {
      need(id);
      return { documentId: id, savedAt: ++clock };
    },
    async listVersions(id) {
      need(id);
      return bridge.versions.get(id) ?? [];
    },
    async readVersion(id, versionId) {
      const v = (bridge.versions.get(id) ?? []).find((e) => e.id === versionId);
      if (!v) throw new ChopinError("not-found", "That version does not exist.");
      return { id: versionId, title: need(id).title, markdown: `# Version ${versionId}` };
    },
    async restoreVersion(id) {
      return { ...touch(need(id), {}) };
    },
    async getSettings() {
      return { ...bridge.settings };
    },
    async updateSettings(patch) {
      if (patch.displayName !== undefined) bridge.settings.displayName = patch.displayName;
      // As the core: a token belongs to its relay address, so another address without a new token forgets it.
      if (patch.relayUrl !== undefined && patch.relayUrl !== bridge.settings.relayUrl && patch.relayToken === undefined) bridge.settings.relayTokenSet = false;
      if (patch.relayUrl !== undefined) bridge.settings.relayUrl = patch.relayUrl;
      if (patch.relayToken !== undefined) bridge.settings.relayTokenSet = patch.relayToken !== null;
      bridge.emit("settings-changed", { ...bridge.settings });
      return { ...bridge.settings };
    },
    async getSyncStatus() {
      return { ...bridge.sync };
    },
    async getMcpInfo(): Promise<McpConnectionInfo> {
      return {
        url: "http://127.0.0.1:47610/mcp",
        configPath: "/data/mcp-config.json",
        commands: { copilotCli: "copilot mcp add chopin", claudeCode: "claude mcp add chopin", codex: "codex mcp add chopin" },
      };
    },
    async getIdentity() {
      return { peerId: "peer-me", displayName: bridge.settings.displayName, color: "#2f6fdf" };
    },
    async getAuthState() {
      return { ...bridge.auth };
    },
    async startSignIn(options) {
      if (bridge.auth.state === "not-configured") throw new ChopinError("not-configured", "GitHub sign-in is not set up.");
      if (options?.staySignedIn && !bridge.auth.secureStorage && options.plaintextConsent !== true) {
        throw new ChopinError("forbidden", "Staying signed in needs consent here.", { reason: "plaintext-consent-required" });
      }
      setAuth({
        state: "signing-in",
        staySignedIn: options?.staySignedIn === true,
        deviceFlow: { userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device", expiresAt: ++clock + 900_000 },
      });
      return { ...bridge.auth };
    },
    async cancelSignIn() {
      setAuth({ state: "signed-out", staySignedIn: false });
      return { ...bridge.auth };
    },
    async signOut() {
      setAuth({ state: "signed-out", staySignedIn: false });
      return { ...bridge.auth };
    },
    async listInstallations() {
      needSignedIn();
      return bridge.installations.map((i) => ({ ...i }));
    },
    async listInstallationRepositories(installationId) {
      needSignedIn();
      const repos = bridge.repositories.get(installationId);
      if (!repos) throw new ChopinError("not-found", "No such installation.");
      return repos.map((r) => ({ ...r }));
    },
    async bindRepository(id, choice) {
      needSignedIn();
      const r = (bridge.repositories.get(choice.installationId) ?? []).find((x) => x.nodeId === choice.repositoryNodeId);
      if (!r) throw new ChopinError("not-found", "That repository is not reachable.");
      return { ...touch(need(id), { repository: { owner: r.owner, name: r.name, nodeId: r.nodeId, defaultBranch: r.defaultBranch } }) };
    },
    async unbindRepository(id) {
      return { ...touch(need(id), { repository: null }) };
    },
    async refreshRepositoryBinding(id) {
      needSignedIn();
      const d = need(id);
      const bound = d.repository;
      if (!bound?.nodeId) return { ...d };
      // The memory GitHub has no numeric ids: a repository is followed by node id across every installation's list.
      const now = [...bridge.repositories.values()].flat().find((r) => r.nodeId === bound.nodeId);
      if (!now) throw new ChopinError("not-found", "The bound repository no longer exists under its recorded identity.");
      if (now.owner === bound.owner && now.name === bound.name && now.defaultBranch === bound.defaultBranch) return { ...d };
      return { ...touch(d, { repository: { ...bound, owner: now.owner, name: now.name, defaultBranch: now.defaultBranch } }) };
    },
    async readSavedDocument(id) {
      if (bridge.savedGate) await bridge.savedGate;
      // The real core hands over its stored chunks; a save() of the core-side document is the same state.
      const handle = repo?.handles[id as never];
      if (!bridge.savedDocuments || !handle?.isReady()) return null;
      return bytesToBase64(A.save(handle.doc()));
    },
    async exportMarkdown(id) {
      const d = need(id);
      const handle = repo?.handles[id as never] as { doc(): { text?: string } } | undefined;
      const body = handle?.doc()?.text ?? "";
      return { fileName: `${d.title}.md`, markdown: firstHeadingText(body) === d.title ? body : `# ${d.title}\n\n${body}` };
    },
    async importMarkdown(file) {
      const bytes = base64ToBytes(file.contentBase64);
      if (bytes.byteLength > MAX_DOCUMENT_MARKDOWN_BYTES) throw new ChopinError("too-large", `“${file.name}” is too large, so it was not imported.`);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new ChopinError("invalid-input", `“${file.name}” is not UTF-8 text, so it was not imported.`);
      }
      return bridge.api.createDocument({ title: firstHeadingText(text) ?? file.name.replace(/\.md$/i, ""), markdown: text, shared: false });
    },
    async openSnapshot(id) {
      if (bridge.snapshotGate) await bridge.snapshotGate;
      const snapshot = bridge.snapshots.get(id);
      return snapshot ? { ...snapshot, heads: [...snapshot.heads] } : null;
    },
    ...conversations,
    async postMessage(id, input) {
      const result = await conversations.postMessage(id, input);
      if (input.to === "planner") planner.invoke(id);
      return result;
    },
    getPlannerState: planner.getPlannerState,
    getPlannerSettings: planner.getPlannerSettings,
    updatePlannerSettings: planner.updatePlannerSettings,
    resetPlannerOwnership: planner.resetPlannerOwnership,
    getExperimentalSettings: agents.getExperimentalSettings,
    updateExperimentalSettings: agents.updateExperimentalSettings,
    listAgents: agents.listAgents,
    createAgent: agents.createAgent,
    updateAgent: agents.updateAgent,
    removeAgent: agents.removeAgent,
    getAgentSidebar: agents.getAgentSidebar,
    setAgentStarred: agents.setAgentStarred,
    recordAgentChatVisit: agents.recordAgentChatVisit,
    ...memoryAgentChat({
      needAgent: async (agentId) => {
        if (!(await agents.listAgents()).agents.some((agent) => agent.id === agentId)) {
          throw new ChopinError("agent-not-found", "There is no agent with that id: it may have been removed, here or by a teammate. Nothing was changed.");
        }
      },
      person: () => "device:device-memory",
      docs,
      now: () => ++clock,
      api: {
        readConversation: (id, query) => api.readConversation(id, query),
        postMessage: (id, input) => api.postMessage(id, input),
        getPlannerState: (id) => api.getPlannerState(id),
        abortPlannerTurn: (id) => api.abortPlannerTurn(id),
        createDocument: (input) => api.createDocument(input),
      },
      recordHandoff: (id, input) => conversations.recordHandoff(id, input),
    }),
  };
  /** Replaces the auth state the way the core does: every change is announced. */
  function setAuth(next: Partial<AuthState> & Pick<AuthState, "state">) {
    const { secureStorage, credentialRevision } = bridge.auth;
    bridge.auth = { secureStorage, credentialRevision, staySignedIn: false, ...next };
    bridge.emit("auth-state", { ...bridge.auth });
  }
  function needSignedIn() {
    if (bridge.auth.state !== "signed-in") throw new ChopinError("unauthorized", "Sign in with GitHub to see your repositories.");
  }
  const recordingApi = Object.fromEntries(
    Object.entries(api).map(([method, fn]) => [
      method,
      async (...args: unknown[]) => {
        bridge.calls.push({ method, args });
        const failure = failures.get(method);
        if (failure) {
          failures.delete(method);
          throw failure;
        }
        // The core's own argument check (shared/api-arguments.ts): a double that took what the core refuses would drift.
        return (fn as (...a: unknown[]) => Promise<unknown>)(...(checkArguments(method as ApiMethod, args) as unknown[]));
      },
    ]),
  ) as unknown as ChopinApi;
  return Object.assign(bridge, {
    api: recordingApi,
    calls: [],
    docs,
    versions: new Map<string, VersionEntry[]>(),
    snapshots: new Map<string, DocumentSnapshot>(),
    snapshotGate: null,
    savedDocuments: true,
    savedGate: null,
    settings: { displayName: "Ada", relayUrl: null, relayTokenSet: false } as Settings,
    sync: { state: "local-only", relayUrl: null, pendingChanges: 0, lastError: null } as SyncStatus,
    auth: { state: "signed-out", credentialRevision: 0, staySignedIn: false, secureStorage: false } as AuthState,
    installations: [
      { id: 71, account: "octo-org", accountType: "Organization" },
      { id: 73, account: "alice", accountType: "User" },
    ],
    repositories: new Map<number, GitHubRepositorySummary[]>([
      [71, [{ nodeId: "R_planets", owner: "octo-org", name: "planets", defaultBranch: "main", private: true }]],
      [73, [{ nodeId: "R_notes", owner: "alice", name: "notes", defaultBranch: "trunk", private: false }]],
    ]),
    completeSignIn(login: string, name?: string) {
      setAuth({
        state: "signed-in",
        login,
        ...(name ? { name } : {}),
        staySignedIn: bridge.auth.staySignedIn,
        credentialRevision: bridge.auth.credentialRevision + 1,
        expiresAt: clock + 8 * 3600_000,
      });
    },
    on<E extends EventName>(event: E, listener: (payload: ChopinEvents[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    emit<E extends EventName>(event: E, payload: ChopinEvents[E]) {
      for (const listener of [...(listeners.get(event) ?? [])]) listener(payload);
    },
    failNext(method: keyof ChopinApi, error: ChopinError) {
      failures.set(method, error);
    },
  });
}
