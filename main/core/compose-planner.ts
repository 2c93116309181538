/**
 * The Planner's part of the app core (issues #25, #26), composed in one place: ownership (the relay's leases for shared
 * plans, this device's for the rest), fenced writes, the permission gate, the Copilot runtime (started only by the
 * first turn) and the turn runner that answers messages to the Planner in the channels this app owns.
 *
 * What must stay true: nothing here starts the runtime at app start; `AGENT=off` (options.off) makes this app never
 * claim, never start the runtime and never run a turn, while everything else (MCP included) works; signing out,
 * an ended sign-in, and quitting release every lease and discard every session.
 */
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import type Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { ChopinEvents } from "../../shared/api.js";
import { fencedTargetOf } from "../../shared/node/fenced-write-target.js";
import type { ConversationService } from "../conversations/conversation-service.js";
import type { DocumentService } from "../documents/document-service.js";
import type { GitHubSession } from "../github/github-session.js";
import { createPermissionFacts, type PermissionFacts } from "../github/permission-facts.js";
import type { ToolConversations } from "../mcp/tools.js";
import { CopilotRuntime, type PlannerProvider, type PlannerTool } from "../planner/copilot-runtime.js";
import { plannerEligibility } from "../planner/eligibility.js";
import { FencedWriter } from "../planner/fenced-writer.js";
import { LeaseClient, type LeaseTransport } from "../planner/lease-client.js";
import { LocalLeaseKeeper } from "../planner/local-lease-keeper.js";
import { checkPermission } from "../planner/permission-gate.js";
import { planPublisher } from "../planner/plan-publisher.js";
import { planTools } from "../planner/plan-tools.js";
import { referenceTool } from "../planner/reference-tool.js";
import { handoffTool } from "../planner/handoff-tool.js";
import { toolHandoffKey, type PlanHandoff } from "../agent-chat/plan-handoff.js";
import { PlannerOwnership } from "../planner/planner-ownership.js";
import { sessionTools } from "../planner/session-tools.js";
import { TurnRunner, type TurnAgent } from "../planner/turn-runner.js";
import { turnSharer } from "../planner/turn-share.js";
import { RemoteTurns } from "../planner/remote-turn.js";
import { deviceOfWirePeer } from "../../shared/relay-user-name.js";
import { turnProgress } from "../planner/turn-progress.js";
import { turnFenceRefusal } from "../planner/turn-fence.js";
import type { ConversationRecords } from "../store/conversation-records.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import { PLANNER_COPILOT_MODEL, PLANNER_RELEASE_ON_QUIT_WAIT_MS, PLANNER_RESUME_MAX_PLANS } from "../util/limits.js";
import type { AppCoreOptions } from "./types.js";
import type { OsCipher } from "../github/secret-vault.js";
import { PlannerSettingsStore } from "../planner/planner-settings.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlannerSettings, PlannerSettingsPatch, PlannerTurnProgress } from "../../shared/api.js";

export interface PlannerPartDeps {
  options: AppCoreOptions;
  /** Encrypts the provider's key at rest where the shell can (Electron's safeStorage). */
  cipher: OsCipher | null;
  db: Database.Database;
  repo: Repo;
  docs: DocumentService;
  conversations: ConversationService;
  conversationRecords: ConversationRecords;
  github: GitHubSession;
  events: TypedEmitter<ChopinEvents>;
  peerId: string;
  displayName(): string;
  holds(documentId: string): boolean;
  relay: { leaseTransport: LeaseTransport; connected(): boolean };
  /** Whose turns a plan runs: an agent chat's agent (issue #27), or null for the Planner. */
  agentOf?(planId: DocumentId): Promise<TurnAgent>;
  /** Makes the plans agent chats hand off (issue #27); absent: no session offers hand_off_plan. */
  handoffs?: Pick<PlanHandoff, "create">;
}

const DENY_ALL: Pick<PermissionFacts, "isCredentialCurrent" | "hasPushOrAdmin" | "installationHasAccess"> = {
  isCredentialCurrent: () => ({ ok: false, reason: "signed-out", message: "GitHub sign-in is not set up on this app.", checkedAt: Date.now() }),
  hasPushOrAdmin: async () => ({ ok: false, reason: "signed-out", message: "GitHub sign-in is not set up on this app.", checkedAt: Date.now() }),
  installationHasAccess: async () => ({ ok: false, reason: "signed-out", message: "GitHub sign-in is not set up on this app.", checkedAt: Date.now() }),
};

/**
 * Who holds this device's own leases (private plans): this app, under one name that never changes. A name taken from
 * the sign-in or the display name changed under a held lease (signing out, renaming), and the keeper then refused its
 * release and renewals as another person's: a sign-out left the private plan's Planner held until the lease expired.
 */
export const LOCAL_LEASE_HOLDER = "this-app";

export function composePlanner(deps: PlannerPartDeps) {
  const { options, db, repo, docs, conversations, github, events } = deps;
  const settings = new PlannerSettingsStore(db, deps.cipher, { offByEnvironment: options.planner?.off === true, commandLineProvider: options.planner?.provider ?? null });
  const off = () => settings.off();
  const login = () => github.credentials?.current()?.identity.login ?? null;
  const leaseSession = randomUUID();
  const leaseTiming = {
    ...(options.plannerLease?.renewEveryMs !== undefined ? { renewEveryMs: options.plannerLease.renewEveryMs } : {}),
    ...(options.plannerLease?.stopMarginMs !== undefined ? { stopMarginMs: options.plannerLease.stopMarginMs } : {}),
  };
  const relayLeases = new LeaseClient({ transport: deps.relay.leaseTransport, session: leaseSession, ...leaseTiming });
  const localKeeper = new LocalLeaseKeeper({
    db,
    keeps: (id) => deps.holds(id) && !docs.isShared(id),
    holder: () => ({ user: LOCAL_LEASE_HOLDER, device: deps.peerId }),
    fencedTarget: async (documentId) => fencedTargetOf(repo, (await repo.find(documentId as DocumentId)) as DocHandle<unknown>),
    ...(options.plannerLease?.localTtlMs !== undefined ? { ttlMs: options.plannerLease.localTtlMs } : {}),
  });
  const localLeases = new LeaseClient({ transport: localKeeper.transport, session: leaseSession, ...leaseTiming });
  const facts = github.rest && github.credentials ? createPermissionFacts({ credentials: github.credentials, rest: github.rest, policy: { allowedUsers: [], allowedOrganizations: [] } }) : null;
  const configured = () => {
    const provider = settings.provider();
    return typeof provider === "object" ? provider : null;
  };
  const providerProblem = () =>
    settings.provider() === "key-missing" ? new ChopinError("not-configured", "The Planner's provider in Settings has no key this app can read any more: enter the key again in Settings.") : null;
  const ownership = new PlannerOwnership({
    relay: relayLeases,
    local: localLeases,
    plans: docs,
    relayReachable: deps.relay.connected,
    eligibility: plannerEligibility({ credential: () => github.credentials?.current() ?? null, facts, providerConfigured: () => configured() !== null, providerProblem, plannerOff: off }),
    offHere: off,
    conversations,
    personName: () => login() ?? deps.displayName(),
    // An agent chat runs only on its person's apps (issue #27).
    personKey: () => conversations.personKey(),
    events,
  });
  const writes = new FencedWriter({
    repo,
    clientFor: (planId) => ownership.keeperOf(planId),
    refused: (outcome, write) => ownership.writeRefused(write.channelId, outcome.reason),
    // A turn's writes are refused here once it was stopped or a new session began (turn-fence.ts), from the replica.
    turnFence: (channelId, fence) => turnFenceRefusal(conversations, channelId, fence),
  });

  // ---- the runtime and the turns (issue #26) ----
  const runtime = new CopilotRuntime({ baseDirectory: join(options.dataDir, "copilot") });
  const provider = (): PlannerProvider | null => {
    if (off() || providerProblem()) return null;
    const chosen = configured();
    if (chosen) return chosen;
    const token = github.credentials?.token() ?? null;
    return token ? { type: "copilot", model: options.planner?.copilotModel ?? PLANNER_COPILOT_MODEL, gitHubToken: token } : null;
  };
  /** The running turns' progress, for this app's windows, and for teammates' apps that have the conversation open. */
  const progressOf = new Map<string, ReturnType<typeof turnProgress>>();
  const sharer = turnSharer({ send: (planId, message) => void conversations.pass(planId as DocumentId, message).catch(() => undefined) });
  const show = (progress: PlannerTurnProgress) => {
    events.emit("planner-turn", progress);
    const generation = ownership.keeperOf(progress.documentId as DocumentId).owns(progress.documentId as DocumentId);
    if (generation !== null && docs.isShared(progress.documentId)) sharer.update(progress, generation, deps.peerId);
  };
  /** hand_off_plan for an agent chat's session (the profile then decides whether it is offered); none for a plan. */
  const chatHandoffTools = async (planId: DocumentId): Promise<PlannerTool<never>[]> => {
    const handoffs = deps.handoffs;
    if (!handoffs || !(await docs.getDocument(planId)).agentChat) return [];
    const agent = (await deps.agentOf?.(planId)) ?? null;
    const by = { agent: agent?.kind === "agent" ? agent.agent.name : "agent" };
    const tool = handoffTool({
      turn: () => runner.currentTurn(planId),
      handOff: ({ turnId, title, brief }) => handoffs.create({ chatPlanId: planId, key: toolHandoffKey(turnId, { title, brief }), title, brief, by }),
      // A retried call finds its card written already (a fenced write of nothing would be refused).
      card: async (entry) => (await conversations.entries(planId)).some((e) => e.author.kind === "planner" && e.handoff?.documentId === entry.handoff.documentId) || runner.publishEntry(planId, entry),
    });
    return [tool as PlannerTool<never>];
  };
  const runner = new TurnRunner({
    runtime,
    owns: (planId) => ownership.keeperOf(planId).owns(planId),
    conversations,
    writes,
    provider,
    identity: () => ({ user: login() ?? deps.displayName(), credentialRevision: login() !== null ? (github.credentials?.revision ?? null) : null }),
    // A bound plan's session also reads its repository, pinned to the default branch's head when the session is made;
    // an agent chat's session can also hand its plan off (issue #27), never a plan's own Planner.
    tools: async (planId, references, turn) =>
      sessionTools(planId, {
        plan: [
          ...planTools(planPublisher({ documents: docs, writes, turn }, planId)),
          referenceTool({
            retained: references,
            content: async (id) => {
              const { detail, markdown } = await docs.getContent(id);
              return { title: detail.title, revision: detail.revision, markdown };
            },
          }) as PlannerTool<never>,
          ...(await chatHandoffTools(planId)),
        ],
        repository: async (id) => (await docs.getDocument(id)).repository,
        rest: github.rest,
      }),
    onEvent: (planId, turnId, event) => {
      let progress = progressOf.get(`${planId}:${turnId}`);
      if (!progress) progressOf.set(`${planId}:${turnId}`, (progress = turnProgress(planId, turnId)));
      if (event.type !== "idle") show(progress.apply(event));
    },
    onTurnEnd: (planId, turnId) => {
      const progress = progressOf.get(`${planId}:${turnId}`) ?? turnProgress(planId, turnId);
      progressOf.delete(`${planId}:${turnId}`);
      show(progress.done());
    },
    gate: async (planId, key, _toolName, _args, turn) => {
      const decision = await checkPermission(
        {
          admitted: (channelId) => (!docs.isShared(channelId) ? null : deps.relay.connected() ? { ok: true } : { ok: false, reason: "The relay cannot be reached, so the admission cannot be confirmed." }),
          currentUser: () => login() ?? deps.displayName(),
          owns: (channelId) => ownership.keeperOf(channelId as DocumentId).owns(channelId as DocumentId),
          facts: facts ?? DENY_ALL,
          repository: async (channelId) => (await docs.getDocument(channelId)).repository,
          turnFence: (channelId, fence) => turnFenceRefusal(conversations, channelId, fence),
        },
        { channelId: planId, user: key.user, ownershipGeneration: key.ownershipGeneration, credentialRevision: key.credentialRevision, turn },
      );
      return decision.allowed ? { allowed: true } : { allowed: false, check: decision.failed, reason: decision.reason };
    },
    ...(deps.agentOf ? { agentOf: deps.agentOf } : {}),
  });
  // A teammate's app runs the Planner here: its running turn, believed only from the lease's holder, reaches the
  // windows as this app's own would; a turn shown ends with its own end, or when the lease moves on.
  const remote = new RemoteTurns();
  conversations.onPassing((planId, senderId, message) => {
    const client = ownership.keeperOf(planId);
    const known = client.known(planId);
    const owner = { generation: known?.generation ?? 0, device: known?.owner ? deviceOfWirePeer(known.owner.device) : null, ownedHere: client.owns(planId) !== null };
    const progress = remote.accept(planId, senderId, message, owner);
    if (progress) events.emit("planner-turn", progress);
  });
  events.on("planner-changed", (state) => {
    const ended = remote.leaseChanged(state.documentId, state.ownershipGeneration, state.owner?.device ?? null);
    if (ended) events.emit("planner-turn", ended);
  });

  if (options.planner?.turns !== false) {
    // A message arrived (from anyone, through the relay too) or this app took the Planner: run what waits.
    events.on("conversation-changed", ({ documentId }) => {
      if (off()) return;
      runner.poke(documentId as DocumentId);
      void runner.noticeAbort(documentId as DocumentId).catch(() => undefined);
    });
    events.on("planner-changed", (state) => {
      if (state.ownedHere && !off()) runner.poke(state.documentId as DocumentId);
      else void runner.discard(state.documentId as DocumentId);
    });
  }

  // Agent chat turned on again (issue #27): a chat's messages that waited while it was off (its turns 'paused') are
  // taken up, where this app runs the chat and where nobody does. Turned off, nothing is stopped: running turns settle.
  if (options.planner?.turns !== false) {
    events.on("experimental-settings-changed", (after) => {
      if (!after.agentChatOn || off()) return;
      const recent = deps.conversationRecords.plansWithSentMessages(PLANNER_RESUME_MAX_PLANS);
      for (const planId of recent) runner.poke(planId as DocumentId);
      ownership.resume(recent);
    });
  }

  // Signed out, or the sign-in ended or expired: this app runs the Planner nowhere any more and its sessions go.
  // Signed in: messages of this person still waiting for the Planner where nobody runs it are taken up (also at start).
  const resumeWaiting = () => ownership.resume(deps.conversationRecords.plansWithSentMessages(PLANNER_RESUME_MAX_PLANS));
  // Before a credential refresh is asked for, every session made with the current revision ends (the seed: sessions
  // are bound to one credential revision); the next turn makes a fresh one with the new token.
  github.credentials?.on("refreshing", () => void runner.discardAll().catch(() => undefined));
  // Only a change counts: the session announces its state often (restore, profile, refresh) while nothing changed.
  // A refreshed credential (a new revision) ends every session made with the old one: the next turn makes a fresh one
  // with the new token (the gate's credential check refuses the old revision's tool calls meanwhile).
  let signedIn = false;
  let revision = 0;
  events.on("auth-state", (state) => {
    const now = state.state === "signed-in";
    if (signedIn && !now) {
      void ownership.releaseAll().catch(() => undefined);
      void runner.discardAll().catch(() => undefined);
    } else if (!signedIn && now) resumeWaiting();
    else if (now && state.credentialRevision !== revision) void runner.discardAll().catch(() => undefined);
    signedIn = now;
    revision = state.credentialRevision;
  });

  /**
   * A change of this app's Planner settings: turned off, it runs the Planner nowhere any more and its sessions end;
   * a new provider ends the sessions made with the old one; turned on (or given a provider), the messages of this
   * person still waiting for the Planner are taken up. Every window hears the settings and the plans' new states.
   */
  const updateSettings = async (patch: PlannerSettingsPatch): Promise<PlannerSettings> => {
    const wasOff = off();
    const before = JSON.stringify(settings.provider());
    const after = settings.update(patch);
    const providerChanged = JSON.stringify(settings.provider()) !== before;
    if (off() && !wasOff) await Promise.all([ownership.releaseAll(), runner.discardAll()]).catch(() => undefined);
    else if (providerChanged) await runner.discardAll().catch(() => undefined);
    if (!off() && (wasOff || providerChanged)) resumeWaiting();
    events.emit("planner-settings-changed", after);
    ownership.announceAll();
    return after;
  };

  const plannerAsked = (planId: DocumentId) => void ownership.invoke(planId).catch(() => undefined);
  const toolConversations: ToolConversations = {
    read: (planId, query) => conversations.read(planId, query),
    answeredTurns: (planId) => conversations.answeredTurns(planId),
    post: async (planId, input) => {
      const result = await conversations.post(planId, input);
      if (input.to === "planner") plannerAsked(planId);
      return result;
    },
    plannerState: (planId) => ownership.state(planId),
    resetPlanner: (planId) => ownership.reset(planId),
    whyNobodyRuns: (planId) => ownership.whyNobodyRuns(planId),
  };

  return {
    ownership,
    settings: { get: () => settings.get(), update: updateSettings },
    writes,
    runtime,
    runner,
    plannerAsked,
    toolConversations,
    resumeWaiting,
    /** Quitting: the Planner released wherever this app runs it (bounded: else the lease expires), sessions ended. */
    async close(): Promise<void> {
      await Promise.race([ownership.quit(), delay(PLANNER_RELEASE_ON_QUIT_WAIT_MS)]).catch(() => undefined);
      sharer.close();
      await runner.close().catch(() => undefined);
      await runtime.stop().catch(() => undefined);
      ownership.close();
      relayLeases.close();
      localLeases.close();
      localKeeper.close();
    },
  };
}
