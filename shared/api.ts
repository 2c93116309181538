/**
 * The app API contract: the one way the renderer talks to the core. The Electron preload exposes exactly this
 * (checked with `satisfies`), and host mode bridges the same interface over a WebSocket. Calls are promises that
 * resolve with plain JSON or reject with a ChopinError; events are pushed with payloads typed by ChopinEvents.
 */
import type { AgentChatMark, Brief, CreatedVia, Provenance, RepositoryBinding } from "./schema/plan-document.js";
import type { ErrorShape } from "./errors.js";
import type { Addressee, Author } from "./schema/conversation.js";
import type { AgentColor, AgentModelChoice, AgentToolName } from "./schema/agent-profiles.js";

/** An Automerge document id (the part after `automerge:`). */
export type DocumentId = string;

export interface DocumentSummary {
  id: DocumentId;
  title: string;
  createdVia: CreatedVia;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** true: shared with the team of the connected relay; false: private to this device. */
  shared: boolean;
  /** A teammate's plan the team's list names whose content has not reached this device yet (it opens once it does). */
  arriving?: true;
  /** Only in search results found by body text (not title): one line of text around the first hit. */
  matchSnippet?: string;
}

export interface DocumentDetail extends DocumentSummary {
  /** Set when a teammate deleted this shared document from the team's list while this device held it (epoch ms): it
   * is kept here, private. */
  leftTeamAt?: number;
  /** Set when a teammate put this private document on the team's list: ignored (nothing is sent) until shared here. */
  listedByTeammate?: true;
  /** `automerge:<id>`: what the renderer's replica opens. */
  url: string;
  repository: RepositoryBinding | null;
  provenance: Provenance | null;
  brief: Brief | null;
  /** Opaque token that changes with every change to the document (digest of its heads). */
  revision: string;
  /** Set on an agent chat's own plan (issue #27): whose chat with which agent. Such a plan is never listed. */
  agentChat?: AgentChatMark;
  /** Set when that chat is another person's: this app reads its plan and changes nothing in it ('forbidden'). */
  teammatesChat?: true;
}

export interface ListDocumentsQuery {
  /** Case-insensitive match on the title, or on the body text (its last stored snapshot). */
  query?: string;
  /** true lists ONLY archived documents; false (default) only live ones. */
  archived?: boolean;
}

export interface CreateDocumentInput {
  title?: string;
  markdown?: string;
  /** Default: shared when a relay is configured, private otherwise. */
  shared?: boolean;
}

export interface VersionEntry {
  /** Stable id of this version: a digest of the heads it ends at. */
  id: string;
  heads: string[];
  /** Display names of who made the changes in this version. */
  authors: string[];
  /** Epoch ms of the last change in the version. */
  at: number;
  /** Human summary, e.g. "+120 −4 characters" or "Renamed to “Launch plan”". */
  summary: string;
  changeCount: number;
}

export interface VersionContent {
  id: string;
  title: string;
  markdown: string;
}

export type SyncState = "local-only" | "connecting" | "connected" | "offline" | "reconnecting" | "unauthorized";

export interface SyncStatus {
  state: SyncState;
  relayUrl: string | null;
  /** Local changes to shared documents the relay has not acknowledged yet. */
  pendingChanges: number;
  /** Why the relay is not connected, in words a person can act on. */
  lastError: ErrorShape | null;
  /** While offline and retrying: when the next connection attempt starts (epoch ms, this machine's clock). */
  nextRetryAt?: number | null;
}

export interface Settings {
  displayName: string;
  relayUrl: string | null;
  /** Whether a relay token is stored; the token itself never returns to the renderer. */
  relayTokenSet: boolean;
}

export interface SettingsPatch {
  displayName?: string;
  relayUrl?: string | null;
  relayToken?: string | null;
}

export interface McpConnectionInfo {
  url: string;
  configPath: string;
  /** Copy-paste commands that connect each coding agent. */
  commands: { copilotCli: string; claudeCode: string; codex: string };
  /**
   * The port the previous launch published, when this launch could not use it (it was taken): agents set up with the
   * old address need the new one. Absent when the port is the same as last time.
   */
  portChangedFrom?: number;
}

export interface Identity {
  /** This device's peer id, bound to the user at the relay. */
  peerId: string;
  displayName: string;
  /** Caret colour other people see. */
  color: string;
}

export interface SaveReceipt {
  documentId: DocumentId;
  /** Epoch ms when the heads were on disk. */
  savedAt: number;
}

/**
 * A write that changes a plan (create, rename, archive, restore, restoreVersion, bind/unbind) answers once it is on
 * disk; when the disk cannot take it, it rejects with 'storage-failure' while the change stays made in memory and is
 * saved once the disk takes writes again. A write of a record (settings, share, delete) refused by the disk is
 * 'storage-failure' with nothing changed. A 'storage-failure' with details.damaged is a plan whose stored copy
 * cannot be read.
 */
/** Plans: listing, reading, writing, sharing, saving, and files. Built by createDocumentsApi (main/documents/). */
export interface DocumentsApi {
  listDocuments(query?: ListDocumentsQuery): Promise<DocumentSummary[]>;
  getDocument(id: DocumentId): Promise<DocumentDetail>;
  createDocument(input: CreateDocumentInput): Promise<DocumentDetail>;
  renameDocument(id: DocumentId, title: string): Promise<DocumentSummary>;
  archiveDocument(id: DocumentId): Promise<DocumentSummary>;
  restoreDocument(id: DocumentId): Promise<DocumentSummary>;
  /** Only an archived document can be deleted. */
  deleteDocument(id: DocumentId): Promise<void>;
  /** Shares a private document with the relay's team. Never the reverse. */
  shareDocument(id: DocumentId): Promise<DocumentSummary>;
  /**
   * A shared plan whose stored copy on this device cannot be read ('storage-failure' with details.damaged): its
   * unreadable bytes are set aside and the team's copy is fetched from the relay; the plan stays listed, here and on
   * the team's list. 'relay-unavailable' when the copy has not arrived yet (it opens once it does).
   */
  restoreDamagedFromTeam(id: DocumentId): Promise<DocumentDetail>;
  /** Resolves once the core holds `heads` of the document on disk. */
  waitSaved(id: DocumentId, heads: string[]): Promise<SaveReceipt>;
  /**
   * The last saved text of a document, readable before the document is loaded (null when none is stored): the
   * window paints it read-only at once and makes it editable when its replica holds the document.
   */
  openSnapshot(id: DocumentId): Promise<DocumentSnapshot | null>;
  /**
   * The document as this device stored it (its Automerge chunks, base64), without loading it: a window's replica
   * loads it directly instead of receiving every change through a sync round (null when nothing is stored yet).
   */
  readSavedDocument(id: DocumentId): Promise<string | null>;
  /** The plan as a Markdown file: its title as the first heading, then its body. */
  exportMarkdown(id: DocumentId): Promise<MarkdownFile>;
  /**
   * A Markdown file as a new private plan titled from its first heading (else its file name). Refused whole, naming
   * the file, when it is not UTF-8 text ('invalid-input') or larger than a plan holds ('too-large').
   */
  importMarkdown(file: MarkdownFileInput): Promise<DocumentDetail>;
}

/** A plan's history. Built by createVersionsApi (main/documents/). */
export interface VersionsApi {
  listVersions(id: DocumentId): Promise<VersionEntry[]>;
  readVersion(id: DocumentId, versionId: string): Promise<VersionContent>;
  /**
   * Restoring is a new change that makes the document read as that version; history keeps everything. `basis`: the
   * document's heads as the person last saw its history (the newest version listed). The restore is made as of those
   * heads, so what teammates wrote after the person confirmed is merged, not reverted.
   */
  restoreVersion(id: DocumentId, versionId: string, basis?: string[]): Promise<DocumentDetail>;
}

/** This device: who the person is, their settings, and how agents connect. Built by createSettingsApi (main/settings/). */
export interface SettingsApi {
  getSettings(): Promise<Settings>;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  getMcpInfo(): Promise<McpConnectionInfo>;
  getIdentity(): Promise<Identity>;
}

/** The link to the team relay. Built by createSyncApi (main/sync/). */
export interface SyncApi {
  getSyncStatus(): Promise<SyncStatus>;
}

/**
 * GitHub sign-in and repository binding (issue #3). Nothing else in the app waits for it: a signed-out app edits
 * documents as before. Built by createGitHubApi (main/github/).
 */
export interface GitHubApi {
  getAuthState(): Promise<AuthState>;
  /** Starts the device flow and resolves at once with the code to type and where; completion arrives as 'auth-state'. */
  startSignIn(options?: StartSignInOptions): Promise<AuthState>;
  cancelSignIn(): Promise<AuthState>;
  /** Forgets the sign-in in memory and on disk. */
  signOut(): Promise<AuthState>;
  listInstallations(): Promise<GitHubInstallation[]>;
  listInstallationRepositories(installationId: number): Promise<GitHubRepositorySummary[]>;
  /** Binds by node id, re-read from the installation's own list (never trusted from the caller). */
  bindRepository(id: DocumentId, choice: RepositoryChoice): Promise<DocumentDetail>;
  unbindRepository(id: DocumentId): Promise<DocumentDetail>;
  /**
   * Follows the binding by GitHub's numeric repository id and writes the current owner/name/default branch when a
   * rename or transfer changed them (same node id). Refuses (not-found) when the id now names another repository or
   * none, leaving the binding as it was; a binding without a repository id (owner/name only) is returned unchanged.
   */
  refreshRepositoryBinding(id: DocumentId): Promise<DocumentDetail>;
}

/** One entry of a plan's conversation as the window shows it. */
export interface ConversationEntryView {
  id: string;
  /** Causal place: one more than the highest its writer had seen. */
  seq: number;
  author: Author;
  to: Addressee;
  /** Markdown. */
  text: string;
  /** The writer's clock, epoch ms. */
  at: number;
  /** Written by this person on this device. */
  mine: boolean;
  /**
   * 'local': the plan is private, there is nowhere to deliver it; 'pending': sent from here and not yet held by the
   * relay (offline, or on its way); 'delivered': the relay holds it (or it came from someone else).
   */
  delivery: "local" | "pending" | "delivered";
  /** After the person's read mark, and not theirs. */
  unread: boolean;
  /** A Planner entry's turn: the message it answers (or began to), how far, and the ownership generation it ran under. */
  turn?: { id: string; state: "started" | "answered"; ownershipGeneration: number };
  /** The entry begins a new Planner session (a processed `/new`): the panel shows a divider. */
  boundary?: true;
  /** A message to the Planner its author withdrew before a turn took it up. */
  withdrawn?: true;
  /** A request to stop the Planner's turn for this message (its author is who stopped it). */
  abortTurn?: string;
  /** The documents the message references, as they were when it was sent; changedSince: the document moved on. */
  references?: { documentId: DocumentId; title: string; revision: string; changedSince: boolean }[];
  /** On a turn's answer: the tool calls the turn made and how each ended. */
  tools?: { name: string; status: "done" | "failed"; note?: string }[];
  /** A tool call the permission gate refused: the tool, the failed check and its reason, and the turn it was in. */
  denial?: { tool: string; check: string; reason: string; turnId: string };
  /** A card: a plan handed off from this agent chat, made (stored and listed) before the card was written. */
  handoff?: { documentId: DocumentId; title: string };
  /** On a turn's answer: the turn failed (the model provider's error, no words); the asker is offered a retry. */
  failed?: true;
  /** The Planner session the entry was written in (Planner and system entries). */
  sessionGeneration?: number;
}

/** A page of a conversation, oldest first: the newest entries, or those before a given entry. */
export interface ConversationPage {
  documentId: DocumentId;
  entries: ConversationEntryView[];
  /** Older entries exist before the first one here. */
  hasMore: boolean;
  /** Entries in the whole conversation. */
  total: number;
  /** Entries after the read mark that others wrote. */
  unreadCount: number;
  /** Entries that did not pass the schema (a newer app's, or damaged): left out, counted. */
  unreadable: number;
}

export interface ConversationQuery {
  /** At most this many entries (default CONVERSATION_PAGE_DEFAULT_ENTRIES, at most MAX_CONVERSATION_PAGE_ENTRIES). */
  limit?: number;
  /** Only entries before this entry (an id from an earlier page). */
  before?: string;
}

export interface PostMessageInput {
  /** Markdown, 1 to MAX_MESSAGE_BYTES bytes of UTF-8. */
  text: string;
  to: Addressee;
  /** The idempotency key of this send: a retry with the same key never makes a second entry. */
  clientRequestId: string;
  /** Documents the message references (`#`), at most MAX_MESSAGE_REFERENCES: evidence for the Planner. */
  references?: DocumentId[];
}

export interface PostMessageResult {
  entry: ConversationEntryView;
  /** False when an earlier send with the same clientRequestId already made this entry. */
  created: boolean;
}

/** Each plan's conversation (issue #25). Built by createConversationsApi (main/conversations/). */
export interface ConversationsApi {
  readConversation(id: DocumentId, query?: ConversationQuery): Promise<ConversationPage>;
  postMessage(id: DocumentId, input: PostMessageInput): Promise<PostMessageResult>;
  /** The composer's unsent text for this plan, kept across switching and restarts. */
  getConversationDraft(id: DocumentId): Promise<string>;
  setConversationDraft(id: DocumentId, text: string): Promise<void>;
  /** Marks the conversation read through this entry (a mark only moves forward). */
  markConversationRead(id: DocumentId, entryId: string): Promise<void>;
  /** Withdraws this person's message to the Planner while it still waits (no turn has taken it up). */
  withdrawMessage(id: DocumentId, entryId: string): Promise<ConversationEntryView>;
  /** Any editor: asks the app running the Planner to stop the turn now running here; recorded as who asked. */
  abortPlannerTurn(id: DocumentId): Promise<ConversationEntryView>;
}

/**
 * Who runs the Planner in a plan (issue #25). The relay keeps a shared plan's lease, this device a private plan's; the
 * ownership generation grows by one with every new owner and never goes back.
 */
export interface PlannerState {
  documentId: DocumentId;
  /** The app that runs the Planner here: its person's user name at the lease's keeper and its device; null: nobody. */
  owner: { user: string; device: string } | null;
  /** This app is the owner and may act now. */
  ownedHere: boolean;
  /** 0 before anyone ever ran the Planner here. */
  ownershipGeneration: number;
  /** Planner sessions begun in this conversation: a reset of ownership ends one (recorded in the conversation). */
  sessionGeneration: number;
  /** 'unknown': a shared plan while the relay cannot be asked (the last known owner is kept in `owner`). */
  state: "unowned" | "running-here" | "running-elsewhere" | "unknown";
  keeper: "relay" | "this-device";
  /** The Planner is turned off on this app (Settings, or AGENT=off): it never runs here; a teammate's app may. */
  offHere: boolean;
  /** Why this app could not take the Planner here when it last tried (not signed in, no push access, ...). */
  refusal?: ErrorShape;
}

/** The model providers a person can configure for the Planner; without one it runs on their GitHub Copilot access. */
export const PLANNER_PROVIDER_TYPES = ["openai", "anthropic", "azure"] as const;
export type PlannerProviderType = (typeof PLANNER_PROVIDER_TYPES)[number];

/** How this app runs the Planner (issue #26, Settings). The provider's key never returns to a window. */
export interface PlannerSettings {
  /** The Settings switch: whether this app may run the Planner. */
  enabled: boolean;
  /** AGENT=off for this run: the Planner stays off whatever the switch says. */
  offByEnvironment: boolean;
  /** The provider kept in Settings; null: the person's GitHub Copilot access (signed in to GitHub). */
  provider: { type: PlannerProviderType; baseUrl: string; model: string; keySet: boolean } | null;
  /** A provider given on the command line for this run, used instead of the one in Settings. */
  commandLineProvider: { type: PlannerProviderType; baseUrl: string; model: string } | null;
}

export interface PlannerSettingsPatch {
  enabled?: boolean;
  /**
   * null: back to GitHub Copilot. A provider's key may be left out to keep the one stored, but only for the same
   * address: a key belongs to the endpoint it was given for and is never sent to another.
   */
  provider?: { type: PlannerProviderType; baseUrl: string; model: string; apiKey?: string } | null;
}

/** Planner ownership (issue #25) and this app's Planner settings (issue #26). Built by createPlannerApi (main/planner/). */
export interface PlannerApi {
  getPlannerSettings(): Promise<PlannerSettings>;
  /** Checked whole: a refused patch changes nothing. Every window hears the result ("planner-settings-changed"). */
  updatePlannerSettings(patch: PlannerSettingsPatch): Promise<PlannerSettings>;
  getPlannerState(id: DocumentId): Promise<PlannerState>;
  /** Any editor's reset: whoever runs the Planner here stops; the conversation records who reset it. */
  resetPlannerOwnership(id: DocumentId): Promise<PlannerState>;
}

/** This app's experimental features (issue #27), each off unless turned on here or for one run. */
export interface ExperimentalSettings {
  /** The Settings switch, kept on this device: agent chat and its Agents page. Off unless turned on. */
  enableAgentChat: boolean;
  /** This run was started with --enable-agent-chat or CHOPIN_ENABLE_AGENT_CHAT=1: agent chat is on whatever the switch says. */
  agentChatByCommandLine: boolean;
  /** Whether agent chat is on now: the switch or the command line. */
  agentChatOn: boolean;
}

export interface ExperimentalSettingsPatch {
  enableAgentChat?: boolean;
}

/** Built by createExperimentalApi (main/agents/). */
export interface ExperimentalApi {
  getExperimentalSettings(): Promise<ExperimentalSettings>;
  /** Every window hears the result ("experimental-settings-changed"). */
  updateExperimentalSettings(patch: ExperimentalSettingsPatch): Promise<ExperimentalSettings>;
}

/** An agent profile (issue #27): who an agent is and what it may do, kept with the team (or on this device). */
export interface AgentProfile {
  id: string;
  name: string;
  color: AgentColor;
  /** Markdown, given to the agent with every session. */
  instructions: string;
  model: AgentModelChoice;
  /** The tools it may use, in AGENT_TOOL_NAMES order. */
  tools: AgentToolName[];
  /** The Planner: built in, never removed, its name fixed. */
  builtIn: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface AgentList {
  /** "team": the connected relay's team keeps these (synced); "device": no relay is configured, they stay here. */
  scope: "device" | "team";
  /**
   * A relay is configured but this device has not learnt its team yet (its first connection): only the Planner is
   * listed and changes are refused ('relay-unavailable') until the team's profiles can be reached.
   */
  teamPending: boolean;
  /** The Planner first, then by name. */
  agents: AgentProfile[];
  /** Profiles that did not pass the schema (a newer app's, or damaged): kept in the document, not listed. */
  unreadable: number;
}

export interface AgentInput {
  name: string;
  /** Default: DEFAULT_AGENT_COLOR. */
  color?: AgentColor;
  /** Default: none. */
  instructions?: string;
  /** Default: the team default. */
  model?: AgentModelChoice;
  /** Default: DEFAULT_AGENT_TOOLS (every tool that only reads). */
  tools?: AgentToolName[];
}

/** Only the fields named change; a teammate's concurrent change of another field stays. */
export type AgentPatch = Partial<AgentInput>;

/** An agent as the sidebar lists it: enough for its row (avatar, name). */
export interface AgentSidebarEntry {
  id: string;
  name: string;
  color: AgentColor;
}

/**
 * The sidebar's Agents (issue #27), one list without a divider: `starred` (this person's, alphabetically, at most
 * MAX_AGENT_STARS), then `recent` (the AGENT_SIDEBAR_RECENTS most recently visited unstarred chats, kept on this
 * device). Agents no longer in the current scope are in neither.
 */
export interface AgentSidebar {
  starred: AgentSidebarEntry[];
  recent: AgentSidebarEntry[];
}

/**
 * Agent profiles (issue #27). Every method refuses with 'agent-chat-disabled' while agent chat is off on this app
 * (nothing is read or changed, nothing deleted). Built by createAgentsApi (main/agents/).
 */
export interface AgentsApi {
  listAgents(): Promise<AgentList>;
  /** Answers once the profile is on disk here. */
  createAgent(input: AgentInput): Promise<AgentProfile>;
  /** 'agent-not-found' for an unknown id; 'agent-built-in' for renaming the Planner. */
  updateAgent(id: string, patch: AgentPatch): Promise<AgentProfile>;
  /** 'agent-not-found' for an unknown id; 'agent-built-in' for the Planner. */
  removeAgent(id: string): Promise<void>;
  /** The sidebar's Agents: this person's starred agents, then their most recently visited chats. */
  getAgentSidebar(): Promise<AgentSidebar>;
  /**
   * Stars or unstars an agent for this person (synced to their other devices; idempotent). 'agent-not-found' for an
   * unknown id; 'too-large' for a star past MAX_AGENT_STARS; 'relay-unavailable' while the team is pending.
   */
  setAgentStarred(agentId: string, starred: boolean): Promise<AgentSidebar>;
  /** The chat view showed this agent's chat: the only thing that makes a recent (kept on this device). */
  recordAgentChatVisit(agentId: string): Promise<AgentSidebar>;
}

/**
 * A person's chat with an agent (issue #27): the chat's own plan (`planId`, where the agent drafts; never listed among
 * plans) and that plan's ordinary conversation. Its events are the plan's: "conversation-changed", "planner-changed"
 * and "planner-turn", keyed by `planId`.
 */
export interface AgentChat {
  planId: DocumentId;
  page: ConversationPage;
  /**
   * 'active' from a message to the agent until its answer is in, with no later message pending (shared/agent-chat-state.ts),
   * and while a send of this device waits in `outbox`.
   */
  state: "waiting" | "active";
  /** Who runs the agent here: only the chat's person's apps ever do. */
  planner: PlannerState;
  /** This device's sends in this chat not delivered yet, in send order ("Waiting to send"); [] when none. */
  outbox: AgentChatOutboxMessage[];
}

/**
 * A chat with no plan yet whose first messages wait in this device's outbox (sent offline, while the relay's team was
 * not known, or as the app stopped): they are all there is to show, and the plan is made when the first is delivered.
 */
export interface AgentChatNotBegun {
  planId: null;
  page: null;
  planner: null;
  /** 'active' while a message waits to be sent; 'waiting' when every one was refused for good. */
  state: "waiting" | "active";
  /** Never empty (with none, the chat reads as null). */
  outbox: AgentChatOutboxMessage[];
}

/** A send of this device to an agent not delivered yet (agent chats' outbox, issue #27). */
export interface AgentChatOutboxMessage {
  clientRequestId: string;
  text: string;
  queuedAt: number;
  /**
   * 'waiting': delivered by this app, in order, as soon as it can be (the relay's team known, the app running);
   * 'failed': refused for good (its error says why); sending it again (same text and clientRequestId) tries again.
   */
  status: "waiting" | "failed";
  /** Why the last attempt did not deliver it; null before an attempt failed. */
  error: ErrorShape | null;
}

export interface AgentChatSendInput {
  /** Markdown, 1 to MAX_MESSAGE_BYTES bytes of UTF-8. */
  text: string;
  /** The idempotency key of this send: a retry with the same key returns the same entry (another text or agent: 'invalid-input'). */
  clientRequestId: string;
}

/** A send's answer: delivered (the conversation's entry), or waiting in this device's outbox (`queued`). */
export type AgentChatSendResult = AgentChatSendDelivered | AgentChatSendQueued;

export interface AgentChatSendDelivered {
  queued: false;
  planId: DocumentId;
  entry: ConversationEntryView;
  /** False when an earlier send with the same clientRequestId already made this entry. */
  created: boolean;
}

/** A chat in the current scope's table of chats (the relay's for a team, this device's without one). */
export interface AgentChatListing {
  agentId: string;
  /** The chat's own plan: open it (getDocument, readConversation) to read the chat; a teammate's is read-only here. */
  planId: DocumentId;
  /** Whose chat: its key ("github:<login>" or "device:<id>"), and how to name them when known. */
  person: { key: string; name?: string; login?: string };
  /** This app's person's own chat. */
  mine: boolean;
}

/**
 * Not delivered yet (the relay's team is not known, the app is stopping, the disk refused): kept on this device and
 * delivered once, in send order, when it can be (also after a restart). readAgentChat lists it meanwhile.
 */
export interface AgentChatSendQueued {
  queued: true;
  /** Known once delivered (while the team is pending, not even its id is). */
  planId: null;
  entry: null;
  /** False when an earlier send with the same clientRequestId already queued it. */
  created: boolean;
  message: AgentChatOutboxMessage;
}

export interface AgentChatHandoffInput {
  /** The new plan's title: one line, 1 to MAX_TITLE_CHARS characters. */
  title: string;
  /** Markdown above the handed-off plan: 1 to MAX_HANDOFF_BRIEF_BYTES bytes of UTF-8. */
  brief: string;
  /** The idempotency key of this handoff: a retry with the same key gives the same plan and the same card. */
  clientRequestId: string;
}

export interface AgentChatHandoffResult {
  /** The new plan: stored and listed (shared with the team when the chat is the team's) before the card was written. */
  documentId: DocumentId;
  /** The chat's card naming it. */
  entry: ConversationEntryView;
}

/**
 * This person's chats with agents (issue #27). Every method refuses with 'agent-chat-disabled' while agent chat is off
 * on this app and with 'agent-not-found' for an agent the profiles do not hold. Built by createAgentChatApi
 * (main/agent-chat/).
 */
export interface AgentChatApi {
  /**
   * A read only: null when the chat was never used here or by this person's other devices and nothing waits in this
   * device's outbox (nothing is made); AgentChatNotBegun when only sends waiting here exist.
   */
  readAgentChat(agentId: string, query?: ConversationQuery): Promise<AgentChat | AgentChatNotBegun | null>;
  /**
   * Queues the send in this device's outbox, then delivers it in order: begins the chat on first send (the same plan on
   * every device of the person) and posts to the agent. Answers `queued` when it cannot be delivered now.
   */
  sendAgentChat(agentId: string, input: AgentChatSendInput): Promise<AgentChatSendResult>;
  /**
   * Discards a send of this person to the agent that waits in this device's outbox ('waiting' or 'failed'), answering
   * what it was; never one delivered ('revision-conflict': it is in the conversation, withdraw it there) nor, while the
   * outbox is delivering it, before that delivery settles (the call waits for it). 'not-found' when nothing waits
   * under that key in this chat. Refuses only while agent chat is off, not for a removed agent (its sends can go).
   * Says "agent-chat-outbox-changed". The key is then free: a later send with it is a new send.
   */
  discardAgentChatSend(agentId: string, clientRequestId: string): Promise<AgentChatOutboxMessage>;
  /** Stops the agent's running turn ('not-found' when none runs); recorded in the chat as who stopped it. */
  stopAgentChat(agentId: string): Promise<ConversationEntryView>;
  /**
   * The current scope's chats, everyone's (teammates read them; only their person posts): from the relay's table for a
   * team ('relay-unavailable' while it cannot be reached), from this device's for its own scope.
   */
  listAgentChats(): Promise<AgentChatListing[]>;
  /**
   * Hands the chat's drafted plan off as a new plan (its Markdown: the brief, then the chat plan's), and records it in
   * the chat as a card; 'not-found' for a chat never begun. The chat's own plan stays as it is.
   */
  handOffAgentChatPlan(agentId: string, input: AgentChatHandoffInput): Promise<AgentChatHandoffResult>;
}

/** Everything a window may ask of the core: one interface per domain, each built beside its service. */
export interface ChopinApi extends DocumentsApi, VersionsApi, SettingsApi, SyncApi, GitHubApi, ConversationsApi, PlannerApi, ExperimentalApi, AgentsApi, AgentChatApi {}

/** A plan as a Markdown file (exportMarkdown). */
export interface MarkdownFile {
  /** A name for the file, made from the title ("Launch plan.md"). */
  fileName: string;
  markdown: string;
}

/** A Markdown file to import: its name, and its bytes as base64 (any encoding: the core refuses what is not UTF-8). */
export interface MarkdownFileInput {
  name: string;
  contentBase64: string;
}

/** What openSnapshot returns. For display only: it may be older than the document. */
export interface DocumentSnapshot {
  id: DocumentId;
  title: string;
  markdown: string;
  /** automerge-repo UrlHeads of the state shown (compare with DocHandle.heads(), order-insensitive). */
  heads: string[];
}

export type AuthStateName = "signed-out" | "signing-in" | "signed-in" | "not-configured";

export interface AuthState {
  state: AuthStateName;
  login?: string;
  name?: string;
  avatarUrl?: string;
  /** Epoch ms when the current access token expires (it is refreshed before then). */
  expiresAt?: number;
  /** Increments on every sign-in and every token refresh. */
  credentialRevision: number;
  /** Whether the sign-in is kept on this device between launches. */
  staySignedIn: boolean;
  /**
   * Signed in with a token given at launch (CHOPIN_GITHUB_TOKEN) rather than through GitHub's sign-in page: held in
   * memory only, never saved, never refreshed; signing out forgets it until the next launch.
   */
  suppliedToken?: boolean;
  /**
   * true when the OS can encrypt a saved sign-in; false means staying signed in needs `plaintextConsent` (a 0600
   * file), which the UI asks for only after a warning.
   */
  secureStorage: boolean;
  /** While signing in: the code to type at the verification address. */
  deviceFlow?: { userCode: string; verificationUri: string; expiresAt: number };
  lastError?: ErrorShape;
}

export interface StartSignInOptions {
  staySignedIn?: boolean;
  /** Required (true) to stay signed in where the OS offers no encryption: the sign-in is saved unencrypted. */
  plaintextConsent?: boolean;
}

export interface GitHubInstallation {
  id: number;
  account: string;
  accountType: string;
}

export interface GitHubRepositorySummary {
  nodeId: string;
  owner: string;
  name: string;
  defaultBranch: string;
  private: boolean;
}

export interface RepositoryChoice {
  installationId: number;
  repositoryNodeId: string;
}

export interface ChopinEvents {
  "documents-changed": { ids: DocumentId[] };
  "sync-status": SyncStatus;
  "settings-changed": Settings;
  "auth-state": AuthState;
  /** A plan's conversation changed (an entry arrived or was sent, a delivery was acknowledged). */
  "conversation-changed": { documentId: DocumentId };
  /** Who runs the Planner in a plan changed (or this app's view of it: the relay became reachable, a claim failed). */
  "planner-changed": PlannerState;
  "planner-settings-changed": PlannerSettings;
  /** The Planner's turn running on this app, as it goes: its text so far and its tool calls (the owner's app only). */
  "planner-turn": PlannerTurnProgress;
  "experimental-settings-changed": ExperimentalSettings;
  /** The agent profiles changed (here, or a teammate's edit arrived), or which ones apply (the relay changed); only while agent chat is on. */
  "agents-changed": AgentList;
  /** A send to this agent's chat was queued in this device's outbox, delivered from it, refused, or discarded (issue #27). */
  "agent-chat-outbox-changed": { agentId: string };
  /** The sidebar's Agents changed: a star (here or on another of this person's devices), a visit, a profile, the scope or the person; only while agent chat is on. */
  "agent-sidebar-changed": AgentSidebar;
}

/** A running turn of the Planner, as the app that runs it streams it to its windows. */
export interface PlannerTurnProgress {
  documentId: DocumentId;
  /** The message the turn answers. */
  turnId: string;
  /** The answer's text so far (Markdown). */
  text: string;
  /** Tool calls in the order they began; a refused one is shown as refused, never as started. */
  tools: { id: string; name: string; status: "running" | "done" | "failed" | "refused"; note?: string }[];
  /** The turn is over (its answer is being written, or it failed). */
  done: boolean;
}

export type ApiMethod = keyof ChopinApi;
export type EventName = keyof ChopinEvents;

/** Every method name, for bridges that must route calls by name and refuse anything else. */
export const API_METHODS = [
  "listDocuments",
  "getDocument",
  "createDocument",
  "renameDocument",
  "archiveDocument",
  "restoreDocument",
  "deleteDocument",
  "shareDocument",
  "restoreDamagedFromTeam",
  "waitSaved",
  "listVersions",
  "readVersion",
  "restoreVersion",
  "getSettings",
  "updateSettings",
  "getSyncStatus",
  "getMcpInfo",
  "getIdentity",
  "getAuthState",
  "startSignIn",
  "cancelSignIn",
  "signOut",
  "listInstallations",
  "listInstallationRepositories",
  "bindRepository",
  "unbindRepository",
  "openSnapshot",
  "readSavedDocument",
  "refreshRepositoryBinding",
  "exportMarkdown",
  "importMarkdown",
  "readConversation",
  "postMessage",
  "getConversationDraft",
  "setConversationDraft",
  "markConversationRead",
  "withdrawMessage",
  "abortPlannerTurn",
  "getPlannerState",
  "resetPlannerOwnership",
  "getPlannerSettings",
  "updatePlannerSettings",
  "getExperimentalSettings",
  "updateExperimentalSettings",
  "listAgents",
  "createAgent",
  "updateAgent",
  "removeAgent",
  "getAgentSidebar",
  "setAgentStarred",
  "recordAgentChatVisit",
  "readAgentChat",
  "sendAgentChat",
  "discardAgentChatSend",
  "stopAgentChat",
  "listAgentChats",
  "handOffAgentChatPlan",
] as const satisfies readonly ApiMethod[];

// Compile-time proof that API_METHODS lists every method of ChopinApi.
type MissingMethods = Exclude<ApiMethod, (typeof API_METHODS)[number]>;
const _allMethodsListed: MissingMethods extends never ? true : never = true;
void _allMethodsListed;

export const EVENT_NAMES = ["documents-changed", "sync-status", "settings-changed", "auth-state", "conversation-changed", "planner-changed", "planner-settings-changed", "planner-turn", "experimental-settings-changed", "agents-changed", "agent-chat-outbox-changed", "agent-sidebar-changed"] as const satisfies readonly EventName[];

// Compile-time proof that EVENT_NAMES lists every event of ChopinEvents (the shells forward exactly these).
type MissingEvents = Exclude<EventName, (typeof EVENT_NAMES)[number]>;
const _allEventsListed: MissingEvents extends never ? true : never = true;
void _allEventsListed;

/** What a renderer gets: the API, an event subscription, and the way to reach the core's document replica. */
export interface ChopinBridge {
  api: ChopinApi;
  on<E extends EventName>(event: E, listener: (payload: ChopinEvents[E]) => void): () => void;
}

/** Wire frames of the host-mode bridge (JSON over WebSocket). */
export type BridgeRequest = { id: number; method: ApiMethod; args: unknown[] };
export type BridgeResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ErrorShape };
export type BridgeEvent = { event: EventName; payload: unknown };

/**
 * What the Electron preload installs as `window.chopin`: the bridge plus the MessagePort the renderer's replica
 * syncs over. Each replicaPort() call gets a fresh port; the core drops the previous one.
 */
export type ChopinPreloadApi = ChopinBridge & { replicaPort(): Promise<MessagePort> };
