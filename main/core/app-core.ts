/**
 * Composes the app core: the local SQLite database, the automerge-repo Repo on SQLite storage, the document service,
 * settings, the relay link, the sync status and the MCP server, behind the ChopinApi contract.
 * What must stay true: renderer peers (same device, reached through a guarded shell) may sync every document; relay
 * peers only shared ones; any other peer nothing. The MCP server is up whatever else fails to connect.
 */
import { composePlanner } from "./compose-planner.js";
import { ConversationService } from "../conversations/conversation-service.js";
import { createConversationsApi } from "../conversations/conversations-api.js";
import { ConversationRecords } from "../store/conversation-records.js";
import { AgentChatOutboxRecords } from "../store/agent-chat-outbox.js";
import { relayHeldHeads } from "../sync/pending-changes.js";
import { toHexHeads } from "../documents/heads.js";
import { refusedOnceClosing } from "../util/closed-guard.js";
import { chmodSync, mkdirSync } from "node:fs";
import { createPlannerApi } from "../planner/planner-api.js";
import { AgentChatSwitch } from "../agents/agent-chat-switch.js";
import { AgentProfiles } from "../agents/agent-profiles.js";
import { createAgentsApi, createExperimentalApi } from "../agents/agents-api.js";
import { AgentStars } from "../agents/agent-stars.js";
import { AgentSidebarService } from "../agents/agent-sidebar.js";
import { AgentChatVisits } from "../store/agent-chat-visits.js";
import { AgentChatService } from "../agent-chat/agent-chat-service.js";
import { createAgentChatApi } from "../agent-chat/agent-chat-api.js";
import { AgentChatRegistry } from "../agent-chat/agent-chat-registry.js";
import { AgentChatTable } from "../../shared/node/agent-chat-table.js";
import { listAgentChatsAtRelay, registerAgentChatAtRelay, registerAgentStarsAtRelay, worthRetrying } from "../sync/agent-chat-relay-client.js";
import { PlanHandoff } from "../agent-chat/plan-handoff.js";
import { commitHandoff, reserveHandoff } from "../store/plan-handoffs.js";
import { chatAgentOf } from "./chat-agent.js";
import { Repo, type DocumentId, type NetworkAdapterInterface, type PeerId } from "@automerge/automerge-repo";
import type { ChopinApi, ChopinEvents } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { DEFAULT_MCP_PORT } from "../../shared/defaults.js";
import { FastLinkAdapter } from "../../shared/fast-link/fast-link-adapter.js";
import { verifiedChangeHashes } from "../../shared/node/change-hash.js";
import { recoveryNote } from "../documents/index-recovery.js";
import { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import { DocumentService } from "../documents/document-service.js";
import { loadOrCreateMcpToken, mcpConnectCommands, startMcpOnStablePort, writeMcpConfig } from "../mcp/index.js";
import { setAsideChunks } from "../store/damaged-chunks.js";
import { openLocalDb } from "../store/local-db.js";
import { listenOnStablePort } from "../store/stable-port.js";
import { DEFAULT_GITHUB_API_URL, DEFAULT_GITHUB_WEB_URL } from "../github/github-config.js";
import { createGitHubApi } from "../github/github-api.js";
import { GitHubSession } from "../github/github-session.js";
import { colorForPeer, loadOrCreatePeerId } from "../settings/identity.js";
import { SharePolicy } from "../sync/share-policy.js";
import { SyncStatusPublisher } from "../sync/sync-status.js";
import { RelayLink, relayCredential } from "../sync/relay-link.js";
import { SettingsService } from "../settings/settings-service.js";
import { WindowFarewell } from "../sync/window-farewell.js";
import { createDocumentsApi, createVersionsApi } from "../documents/documents-api.js";
import { createSettingsApi } from "../settings/settings-api.js";
import { createSyncApi } from "../sync/sync-api.js";
import { ClosableStorage } from "../../shared/closable-storage.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { within } from "../util/within.js";
import { AGENT_CHAT_RELINK_WAIT_MS } from "../util/limits.js";
import { lockDataDir, type DataDirLock } from "../store/data-dir-lock.js";
import { guardRepoSaves } from "../store/repo-save-guard.js";
import type { AppCore, AppCoreOptions } from "./types.js";

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(options.dataDir, 0o700);
  } catch {
    // Not our folder to change (e.g. a shared mount): keep going with what the OS gave us.
  }
  // Before anything in the folder is opened or written: a second core must leave the first one's files alone.
  const lock = lockDataDir(options.dataDir);
  try {
    return await startCore(options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startCore(options: AppCoreOptions, lock: DataDirLock): Promise<AppCore> {
  const db = openLocalDb(options.dataDir);
  const settings = new SettingsService(db, options.osCipher ?? null);
  if (options.relayUrl !== undefined || options.relayToken !== undefined) {
    settings.update({ relayUrl: options.relayUrl, relayToken: options.relayToken });
  }
  const peerId = loadOrCreatePeerId(db);
  const events = new TypedEmitter<ChopinEvents>();
  const policy = new SharePolicy();
  const chunks = new SqliteStorageAdapter(db);
  const storage = new ClosableStorage(chunks);
  const repo = new Repo({ storage, network: [], peerId: peerId as PeerId, shareConfig: policy.shareConfig });
  // A failed write must neither end the process nor pass as saved (repo-save-guard.ts).
  const onStorageFault = (failure: ChopinError) => options.onStorageFault?.(failure.message);
  guardRepoSaves(repo, onStorageFault);
  const rendererPeers = policy.rendererPeers;
  const farewell = new WindowFarewell(repo, () => rendererPeers as Set<PeerId>, async (peer, documentId) => policy.mayShare(peer, documentId));

  let relay: RelayLink | null = null;
  const docs = await DocumentService.open({
    repo,
    db,
    events,
    displayName: () => settings.get().displayName,
    storedIds: () => chunks.storedKeyHeads(),
    holds: (id) => chunks.holds([id]),
    // A damaged plan leaves the list, its bytes kept in chopin.db's damaged_chunks table (damaged-chunks.ts).
    setAside: (id) => void setAsideChunks(db, chunks, id, Date.now()),
    inWindow: (id) => policy.inWindow(repo, id),
    onStorageFault,
    // Opening a teammate's plan that has not arrived yet waits for it only while the relay can bring it.
    teamReachable: () => relay?.status().state === "connected",
    // A teammate's agent chat plan is read here and never changed (issue #27), as its conversation is.
    chatPerson: () => conversations.personKey(),
  });

  // Each plan's conversation (issue #25): shared exactly when its plan is, so every share decision maps it to its plan.
  const conversationRecords = new ConversationRecords(db);
  const conversations = new ConversationService({
    repo,
    records: conversationRecords,
    events,
    plans: docs,
    holds: (id) => chunks.holds([id]),
    author: () => {
      const login = github.credentials?.current()?.identity.login;
      return { kind: "person", name: settings.get().displayName, device: peerId, ...(login ? { login } : {}) };
    },
    relayHeld: (handle) => (relay?.status().state === "local-only" ? null : relayHeldHeads(handle, relay!.relayStorageId(), toHexHeads, (id) => relay!.receivedHeads(id))),
  });
  conversations.notePlans((await docs.listDocuments()).map((d) => d.id));
  conversations.notePlans((await docs.listDocuments({ archived: true })).map((d) => d.id));
  // Agent chats' plans are never listed among plans; their conversations are shared as any plan's (issue #27).
  conversations.notePlans(docs.agentChatPlanIds());
  events.on("documents-changed", ({ ids }) => conversations.notePlans(ids));
  // Agent profiles (issue #27): the configured relay team's document is shared with it, this device's never.
  const agentChat = new AgentChatSwitch(db, options.enableAgentChat === true);
  const agents = new AgentProfiles({
    repo,
    holds: (id) => chunks.holds([id]),
    deviceId: peerId,
    chatOn: () => agentChat.on(),
    changed: (list) => events.emit("agents-changed", list),
  });
  // The sidebar's Agents (issue #27): this person's stars (a document of theirs in the scope, shared with the team's
  // relay so their other devices see them) and this device's chat visits.
  const stars = new AgentStars({ repo, holds: (id) => chunks.holds([id]), changed: () => sidebar.mayHaveChanged() });
  const sidebar: AgentSidebarService = new AgentSidebarService({
    profiles: agents,
    stars,
    visits: new AgentChatVisits(db),
    personKey: () => conversations.personKey(),
    chatOn: () => agentChat.on(),
    changed: (view) => events.emit("agent-sidebar-changed", view),
  });
  events.on("agents-changed", () => sidebar.mayHaveChanged());
  events.on("auth-state", () => sidebar.mayHaveChanged());
  const isShared = (id: string) => docs.isShared(conversations.planOf(id) ?? id) || agents.isTeamDocument(id) || stars.isTeamDocument(id);
  const sharing = {
    setRelay(url: string | null) {
      docs.setRelay(url);
      agents.setRelay(url);
    },
    async setTeamIndex(documentId: string | null, confirmed?: boolean) {
      // The team is named before its list loads: its profiles need only the name, not the list.
      agents.setTeam(documentId);
      await docs.setTeamIndex(documentId, confirmed);
    },
    isShared,
  };

  const syncStatus = new SyncStatusPublisher(repo, () => relay!, isShared, events);
  // Each (re)connection to the relay retries fetching the team's plans this device lacks (team-prefetch.ts).
  let relayConnected = false;
  let noteKnownChats = () => {};
  const onRelayChange = () => {
    syncStatus.publish();
    const connected = relay?.status().state === "connected";
    if (connected && !relayConnected) {
      docs.prefetchTeam(true);
      // Chats the relay could not register yet are tried again now (issue #27: the table of chats).
      noteKnownChats();
    }
    relayConnected = connected;
  };
  relay = new RelayLink(
    repo,
    db,
    sharing,
    peerId,
    onRelayChange,
    (user) => {
      // The relay's name for this person becomes the default display name: windows must hear the new identity.
      if (settings.noteTeamHandle(user)) events.emit("settings-changed", settings.get());
    },
    onStorageFault,
  );
  policy.connect({ isRelayPeer: (peer) => relay!.isRelayPeer(peer), isShared });
  // The relay's acknowledgements move messages sent from here from "not yet delivered" to delivered.
  events.on("sync-status", () => conversations.deliveriesMayHaveChanged());
  events.on("documents-changed", () => syncStatus.publish());
  // Sharing a document changes what the relay may see: let the Repo re-announce.
  events.on("documents-changed", () => repo.shareConfigChanged());

  const initial = settings.get();
  await relay.configure(initial.relayUrl, relayCredential(settings.relayToken(), null));

  // ---- GitHub sign-in and repository binding (issue #3): restored in the background, never awaited ----
  const github = new GitHubSession({
    config: {
      clientId: options.githubClientId ?? null,
      apiBaseUrl: options.githubApiUrl ?? DEFAULT_GITHUB_API_URL,
      webBaseUrl: options.githubWebUrl ?? DEFAULT_GITHUB_WEB_URL,
    },
    dataDir: options.dataDir,
    osCipher: options.osCipher ?? null,
    onState: (state) => events.emit("auth-state", state),
    suppliedToken: options.githubToken ?? null,
  });
  // Relay admission by GitHub: with no relay token set, the GitHub user token is the relay credential (sent only to a
  // relay that asks for it, over wss:// or loopback), so each sign-in and refresh reconnects once with the fresh token
  // and signing out disconnects.
  const relayToken = () => relayCredential(settings.relayToken(), github.credentials?.token() ?? null);
  events.on("auth-state", () => void relay!.follow(settings.get().relayUrl, relayToken()));
  // The supplied token (if any) is checked here, else a saved sign-in restored: in the background, never awaited.
  const gitHubSignIn = github.restore().then(() => github.state());
  // ---- end GitHub ----

  // Plan handoffs from agent chats (issue #27): a row in this device's database names each handoff's plan before it is
  // made (the key's constraint is the idempotency), then the plan is made there, stored and listed.
  const handoffs = new PlanHandoff({
    records: { reserve: (reservation) => reserveHandoff(db, reservation), commit: (chatPlanId, key, at) => commitHandoff(db, chatPlanId, key, at) },
    plans: { markdown: async (id) => (await docs.getContent(id)).markdown, isShared: (id) => docs.isShared(id), openOrCreateHandoffPlan: (start) => docs.openOrCreateHandoffPlan(start) },
    now: Date.now,
  });

  // ---- The Planner (issues #25, #26): ownership, fenced writes, the runtime and the turns ----
  const planner = composePlanner({
    options,
    cipher: options.osCipher ?? null,
    db,
    repo,
    docs,
    conversations,
    conversationRecords,
    github,
    events,
    peerId,
    displayName: () => settings.get().displayName,
    holds: (id) => chunks.holds([id]),
    relay: { leaseTransport: relay.leaseTransport, connected: () => relay!.status().state === "connected" },
    agentOf: chatAgentOf({ plans: docs, profiles: agents }),
    handoffs,
  });
  const { ownership, toolConversations, plannerAsked } = planner;
  // What the table of chats at the relay is asked with (main/sync/agent-chat-relay-client.ts).
  const relayCredentials = () => ({ url: settings.get().relayUrl ?? "", relayToken: settings.relayToken(), githubToken: github.credentials?.token() ?? null });

  // Each person's chats with agents (issue #27): plans and conversations run by the Planner's machinery above.
  const chatRegistry = new AgentChatRegistry({
    local: new AgentChatTable(db),
    deviceId: peerId,
    relay: {
      register: (chat) => registerAgentChatAtRelay(relayCredentials(), chat),
      registerStars: (person) => registerAgentStarsAtRelay(relayCredentials(), person),
      list: () => listAgentChatsAtRelay(relayCredentials()),
      worthRetrying,
    },
  });
  const agentChats = new AgentChatService({
    profiles: agents,
    personKey: () => conversations.personKey(),
    relayUrl: () => settings.get().relayUrl,
    outbox: new AgentChatOutboxRecords(db),
    outboxChanged: (agentId) => events.emit("agent-chat-outbox-changed", { agentId }),
    registry: chatRegistry,
    plans: docs,
    conversations,
    planner: { state: (planId) => ownership.state(planId), asked: plannerAsked },
    handoffs,
  });
  // Sends waiting in the outbox move when the scope (the team became known), the switch or the person changes; the
  // person's stars in a newly known team are registered at its relay then too.
  events.on("agents-changed", () => {
    agentChats.outboxMayMove();
    if (agentChat.on()) agentChats.noteStars();
  });
  events.on("auth-state", () => agentChats.outboxMayMove());

  // This person's chats this device's lists name are (re)registered at start, at each connection and sign-in change;
  // the registry asks the relay only for those not registered this run, and never while agent chat is off.
  // A relay token added or changed registers them all again: that is what links the token to the GitHub login at the
  // relay, whose chat guard otherwise drops this person's writes made on the new token (sync-relay/token-links.ts).
  let relayTokenRegistered = settings.relayToken();
  noteKnownChats = () => {
    if (!agentChat.on()) return;
    if (settings.relayToken() !== relayTokenRegistered) {
      relayTokenRegistered = settings.relayToken();
      chatRegistry.registerAgain();
    } else chatRegistry.retryNow();
    agentChats.noteKnownChats();
  };
  noteKnownChats();
  events.on("auth-state", () => noteKnownChats());

  const token = loadOrCreateMcpToken(db);
  const relayUrl = () => settings.get().relayUrl;
  const mcpStart = await startMcpOnStablePort({ documents: docs, db, token, relayUrl, conversations: toolConversations, agents, agentChats }, options.mcpPort ?? DEFAULT_MCP_PORT, db);
  const mcpServer = mcpStart.server;
  const configPath = writeMcpConfig(options.dataDir, mcpServer.url, token);


  // One interface per domain, each built beside its service and checking its arguments (shared/api-arguments.ts).
  const api: ChopinApi = {
    ...createDocumentsApi(docs, {
      relayUrl,
      farewell: (documentId) => farewell.sayFor(documentId),
      shareConfigChanged: () => repo.shareConfigChanged(),
      deleted: (documentId) => conversations.forget(documentId),
    }),
    ...createVersionsApi(docs),
    ...createSettingsApi({
      settings,
      // A relay token added or changed is linked to the person's GitHub login at the relay (their chats registered
      // again) before the link speaks with it, so the relay's chat guard never drops their own writes made on it.
      // Bounded, and only when the token changed: any other settings change follows the relay at once.
      followRelay: async (after) => {
        if (settings.relayToken() !== relayTokenRegistered) {
          noteKnownChats();
          await within(chatRegistry.whenQuiet(), AGENT_CHAT_RELINK_WAIT_MS);
        }
        await relay!.follow(after.relayUrl, relayToken());
      },
      events,
      mcpInfo: () => ({
        url: mcpServer.url,
        configPath,
        commands: mcpConnectCommands(mcpServer.url, token),
        ...(mcpStart.changedFrom !== null ? { portChangedFrom: mcpStart.changedFrom } : {}),
      }),
      identity: () => ({ peerId, displayName: settings.get().displayName, color: colorForPeer(peerId) }),
    }),
    ...createSyncApi(syncStatus),
    ...createGitHubApi(github, docs),
    ...createConversationsApi(conversations, plannerAsked),
    ...createPlannerApi(ownership, planner.settings),
    ...createExperimentalApi(agentChat, agents, (after) => events.emit("experimental-settings-changed", after)),
    ...createAgentsApi(agents, sidebar),
    ...createAgentChatApi(agentChats),
  };


  let closing: Promise<void> | null = null;
  // Scheduled only once the core has started (a failed start schedules nothing), and skipped once close() began.
  setImmediate(() => {
    if (closing !== null) return;
    try {
      planner.resumeWaiting();
      // What the outbox kept across a restart goes out, in order, as soon as it can.
      agentChats.outboxMayMove();
    } catch (error) {
      onStorageFault(new ChopinError("storage-failure", `Looking for messages waiting for the Planner failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  });
  return {
    // Refused with a sentence once close() began: a window's late call must not reach a closed database.
    api: refusedOnceClosing(api, () => closing !== null),
    events,
    repo,
    mcp: { url: mcpServer.url, port: mcpServer.port, configPath, portChangedFrom: mcpStart.changedFrom },
    startupNotes: docs.indexRecovery ? [recoveryNote(docs.indexRecovery)] : [],
    gitHubSignInSettled: () => gitHubSignIn,
    planner: { writes: planner.writes, ownership, entry: (planId, input) => conversations.plannerEntry(planId, input), documents: docs, runtimeStarted: () => planner.runtime.started, runtimeSessions: () => planner.runtime.sessions, turnsBusy: (planId) => planner.runner.busy(planId as DocumentId) },
    listenOnStablePort: (name, requested, listen) => listenOnStablePort(db, name, requested, listen),
    attachRendererAdapter(inner: NetworkAdapterInterface) {
      // The window fast link (docs/architecture.md, "Window fast link"): a window's keystrokes reach this Repo, and
      // the relay's and other windows' changes reach the window, as change bytes at once instead of by throttled sync.
      // The link asks the same decision as the Repo's shareConfig for every batch: a window is this device's own.
      const adapter = new FastLinkAdapter(inner, { side: "core", hashes: verifiedChangeHashes, mayCarry: (peer) => rendererPeers.has(peer) });
      adapter.attachRepo(repo);
      // Registered before the Repo's own listener, so the policy knows the peer before the Repo asks about it.
      // A renderer adapter counts as ready only once a window connects, and the Repo holds every find() until all
      // adapters are ready: without this, the core (and MCP, and the relay's team index) would wait for a window.
      adapter.isReady = () => true;
      adapter.whenReady = () => Promise.resolve();
      adapter.on("peer-candidate", ({ peerId: peer }) => rendererPeers.add(peer));
      adapter.on("peer-disconnected", ({ peerId: peer }) => {
        rendererPeers.delete(peer);
        // A page torn down fast may not get its own goodbye out: the core says it (window-farewell.ts).
        void farewell.windowLeft(peer).catch(() => undefined);
      });
      adapter.on("message", (message) => {
        // Only a window's own presence (a window also echoes its teammates' back, under their ids).
        if (message.type === "ephemeral" && message.documentId && rendererPeers.has(message.senderId)) {
          farewell.noteWindowPresence(message.senderId, message.documentId);
        }
      });
      repo.networkSubsystem.addNetworkAdapter(adapter);
    },
    close: () =>
      (closing ??= (async () => {
        syncStatus.close();
        chatRegistry.close();
        // The outbox's drain ends at its row before anything it posts through closes.
        await agentChats.close();
        await planner.close();
        github.dispose();
        await mcpServer.close().catch(() => {});
        relay!.close();
        docs.close();
        await repo.flush().catch(() => {});
        await repo.shutdown().catch(() => {});
        storage.close();
        db.close();
        lock.release();
      })()),
  };
}
