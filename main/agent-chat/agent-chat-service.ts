/**
 * A person's chats with agents (issue #27), on what exists: a chat is a plan (the chat's own plan, at an id derived
 * from the profiles' scope, the agent and the person: shared/node/agent-chat-identity.ts) and that plan's ordinary
 * conversation, run by the Planner's lease, turns and fenced writes with the agent's profile applied
 * (main/core/compose-planner.ts). This service finds the chat and says its state; a send goes through this device's
 * outbox (chat-outbox.ts), which delivers it here. It keeps no transcript and runs no turn of its own.
 *
 * What must stay true:
 *  - while agent chat is off, every call refuses with 'agent-chat-disabled' and nothing is read, opened or written;
 *    an agent the current profiles do not hold is 'agent-not-found';
 *  - reading a chat never used makes nothing (no document, no handle, no listing, no lease watched);
 *  - the first send begins the chat's plan at its derived id from the shared genesis, so first sends from two windows
 *    or two devices of the person begin one chat; a retried send (same clientRequestId) is the same entry;
 *  - a send is a row of the outbox before anything else; one that cannot be delivered now is answered 'queued' and
 *    listed by the chat's read (a chat of only such sends reads as AgentChatNotBegun, not null);
 *  - a begun chat is noted in its scope's table of chats (agent-chat-registry.ts), which never blocks or fails a send;
 *    the scope's chats are listed from that table;
 *  - only the chat's person posts in it (ConversationService refuses others 'forbidden') and only their apps run it
 *    (PlannerOwnership's eligibility).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { AgentChat, AgentChatHandoffInput, AgentChatOutboxMessage, AgentChatHandoffResult, AgentChatListing, AgentChatNotBegun, AgentChatSendInput, AgentChatSendResult, AgentProfile, ConversationEntryView, ConversationPage, ConversationQuery, DocumentDetail, PlannerState, PostMessageInput, PostMessageResult } from "../../shared/api.js";
import { agentChatState } from "../../shared/agent-chat-state.js";
import { ChopinError } from "../../shared/errors.js";
import { agentChatGenesis, agentChatIdOf, type AgentChatKey, type AgentChatScope } from "../../shared/node/agent-chat-identity.js";
import type { AgentChatMark } from "../../shared/schema/plan-document.js";
import { PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { nameOfRelayHandle } from "../../shared/relay-user-name.js";
import type { AgentChatPlanStart } from "../documents/agent-chat-plan.js";
import type { AgentChatRegistry } from "./agent-chat-registry.js";
import type { ConversationEntry } from "../../shared/schema/conversation.js";
import { entryTurn } from "../../shared/planner-turns.js";
import type { AgentChatOutboxRecords, OutboxChat, OutboxRow } from "../store/agent-chat-outbox.js";
import { ChatOutbox, type Delivered, type OutboxHere } from "./chat-outbox.js";
import { handoffCardText } from "../../shared/plan-handoff.js";
import type { Handoff } from "../../shared/schema/conversation.js";
import { personHandoffKey, type PlanHandoff } from "./plan-handoff.js";

export interface AgentChatServiceDeps {
  profiles: {
    /** The agent's profile now ('agent-chat-disabled' while off, 'agent-not-found' for an unknown id). */
    find(agentId: string): Promise<AgentProfile>;
    /** The scope the profiles apply in now; null while a relay's team is not known yet. */
    currentScope(): AgentChatScope | null;
  };
  /** This app's person as the conversation keys authors: "github:<login>", else "device:<device id>". */
  personKey(): string;
  /** The configured relay's URL (null: none): while its team is not known, sends wait queued under it. */
  relayUrl(): string | null;
  /** This device's outbox of sends (main/store/agent-chat-outbox.ts). */
  outbox: AgentChatOutboxRecords;
  /** What waits in the outbox for this agent's chat changed (a send queued, delivered or refused). */
  outboxChanged?(agentId: string): void;
  plans: {
    agentChatPlanExists(documentId: DocumentId): boolean;
    openOrBeginAgentChatPlan(start: AgentChatPlanStart): Promise<DocumentDetail>;
    /** The chat plans this device's lists name, with their marks. */
    agentChatPlans(): { planId: DocumentId; mark: AgentChatMark }[];
  };
  /** The table of chats (agent-chat-registry.ts): a begun chat is registered there, and listed from there. */
  registry: Pick<AgentChatRegistry, "noteBegun" | "noteStars" | "list">;
  conversations: {
    read(planId: DocumentId, query?: ConversationQuery): Promise<ConversationPage>;
    /** Every stored entry (the kept transcript): the state is read from these, not from views of them. */
    entries(planId: DocumentId): Promise<ConversationEntry[]>;
    post(planId: DocumentId, input: PostMessageInput): Promise<PostMessageResult>;
    requestAbort(planId: DocumentId, agentName?: string): Promise<ConversationEntryView>;
    /** The person's card of a plan they handed off, once per clientRequestId. */
    recordHandoff(planId: DocumentId, input: { text: string; handoff: Handoff; clientRequestId: string }): Promise<ConversationEntryView>;
  };
  /** Makes a handed-off plan, idempotent by its key (plan-handoff.ts). */
  handoffs: Pick<PlanHandoff, "create">;
  planner: {
    state(planId: DocumentId): Promise<PlannerState>;
    /** A message to the agent was posted: this app claims the chat if nobody runs it and it may. */
    asked(planId: DocumentId): void;
  };
}

const TEAM_PENDING = "The team's agents have not reached this device yet: it has not reached the relay since it was set up. Try again once it is connected.";

export class AgentChatService {
  readonly #deps: AgentChatServiceDeps;
  readonly #outbox: ChatOutbox;

  constructor(deps: AgentChatServiceDeps) {
    this.#deps = deps;
    this.#outbox = new ChatOutbox({ records: deps.outbox, here: () => this.#here(), deliver: (row) => this.#deliver(row), changed: (agentId) => deps.outboxChanged?.(agentId) });
  }

  async read(agentId: string, query?: ConversationQuery): Promise<AgentChat | AgentChatNotBegun | null> {
    await this.#deps.profiles.find(agentId);
    const here = this.#here();
    const outbox = this.#outbox.waiting({ scope: here.scope, agentId, person: here.person }, here.relayUrl);
    const notBegun = (): AgentChatNotBegun => ({ planId: null, page: null, planner: null, state: outbox.some((m) => m.status === "waiting") ? "active" : "waiting", outbox });
    const key = keyOf(agentId, here);
    if (!key) {
      if (outbox.length > 0) return notBegun();
      throw new ChopinError("relay-unavailable", TEAM_PENDING);
    }
    const planId = agentChatIdOf(key);
    if (!this.#deps.plans.agentChatPlanExists(planId)) return outbox.length > 0 ? notBegun() : null;
    const [page, planner] = await Promise.all([this.#deps.conversations.read(planId, query), this.#deps.planner.state(planId)]);
    // The state asks every entry, not only this page's (an older pending message keeps the chat active): from the
    // kept transcript, without a view of each.
    const all = (await this.#deps.conversations.entries(planId)).map((entry) => {
      const turn = entryTurn(entry);
      return { id: entry.id, author: entry.author, to: entry.to, ...(entry.withdrawnAt !== undefined ? { withdrawn: true as const } : {}), ...(turn ? { turn } : {}) };
    });
    const state = outbox.some((m) => m.status === "waiting") ? "active" : agentChatState(all, planner);
    return { planId, page, state, planner, outbox };
  }

  /** Queued in this device's outbox first (refused as the profiles refuse), then delivered in order: see chat-outbox.ts. */
  async send(agentId: string, input: AgentChatSendInput): Promise<AgentChatSendResult> {
    return this.#outbox.send(async (): Promise<OutboxChat> => {
      await this.#deps.profiles.find(agentId);
      const { scope, person } = this.#here();
      return { scope, agentId, person };
    }, input);
  }

  /**
   * Discards a send of this person to the agent that waits in this device's outbox (chat-outbox.ts). Asks only the
   * switch, not the agent: a removed agent's refused sends are listed nowhere else, and this is what removes them.
   */
  async discard(agentId: string, clientRequestId: string): Promise<AgentChatOutboxMessage> {
    await this.#deps.profiles.find(PLANNER_AGENT_ID);
    return this.#outbox.discard({ agentId, person: this.#deps.personKey() }, clientRequestId);
  }

  /** Delivers queued sends that can be now (the team became known, the person or the switch changed, the app started). */
  outboxMayMove(): void {
    void this.#outbox.drain();
  }

  /** The app is stopping: the outbox's drain ends at its row; what is not delivered waits for the next run. */
  close(): Promise<void> {
    return this.#outbox.close();
  }

  async stop(agentId: string): Promise<ConversationEntryView> {
    const agent = await this.#deps.profiles.find(agentId);
    const key = keyOf(agentId, this.#here());
    if (!key) throw new ChopinError("relay-unavailable", TEAM_PENDING);
    const planId = agentChatIdOf(key);
    if (!this.#deps.plans.agentChatPlanExists(planId)) throw new ChopinError("not-found", "This chat has not begun, so no turn of the agent is running.");
    return this.#deps.conversations.requestAbort(planId, agent.name);
  }

  /** One queued send, delivered: the chat's plan begun (idempotent, one at a time per plan), the message posted to the agent. */
  async #deliver(row: OutboxRow): Promise<Delivered> {
    await this.#deps.profiles.find(row.agentId);
    const key = keyOf(row.agentId, { scope: row.scope, person: row.person });
    if (!key) throw new ChopinError("relay-unavailable", TEAM_PENDING);
    const planId = agentChatIdOf(key);
    // The same bytes on every device: two first sends begin one plan.
    await this.#deps.plans.openOrBeginAgentChatPlan({
      documentId: planId,
      mark: { agentId: key.agentId, person: key.person },
      genesis: () => agentChatGenesis(key),
      shared: key.scope.kind === "team",
    });
    // Registered in the scope's table, now or later: never waited on, never failing the send.
    this.#deps.registry.noteBegun(key.scope, { agentId: key.agentId, person: key.person, planId });
    const { entry, created } = await this.#deps.conversations.post(planId, { text: row.text, to: "planner", clientRequestId: row.clientRequestId });
    this.#deps.planner.asked(planId);
    return { planId, entry, created };
  }

  /**
   * The current scope's chats, from its table (the relay's for a team: 'relay-unavailable' when it cannot be asked).
   * A chat registered under a plan id its (scope, agent, person) does not derive is left out: its plan would not be
   * the one the person's apps open.
   */
  async list(): Promise<AgentChatListing[]> {
    // The Planner is always held: this asks only the switch ('agent-chat-disabled' while off).
    await this.#deps.profiles.find(PLANNER_AGENT_ID);
    const scope = this.#deps.profiles.currentScope();
    if (!scope) throw new ChopinError("relay-unavailable", TEAM_PENDING);
    const me = this.#deps.personKey();
    const rows = await this.#deps.registry.list(scope);
    return rows.flatMap((row) => {
      if (agentChatIdOf({ scope, agentId: row.agentId, person: row.person }) !== row.planId) return [];
      const login = row.person.startsWith("github:") ? row.person.slice("github:".length) : undefined;
      const name = login ?? (scope.kind === "team" ? nameOfRelayHandle(row.registeredBy) : undefined);
      return [{ agentId: row.agentId, planId: row.planId as DocumentId, person: { key: row.person, ...(name ? { name } : {}), ...(login ? { login } : {}) }, mine: row.person === me }];
    });
  }

  /**
   * The person hands the chat's drafted plan off: the new plan is made (stored and listed) first, then the card; a
   * refused creation writes no card. A retry (same clientRequestId) is the same plan and the same card.
   */
  async handOff(agentId: string, input: AgentChatHandoffInput): Promise<AgentChatHandoffResult> {
    await this.#deps.profiles.find(agentId);
    const key = keyOf(agentId, this.#here());
    if (!key) throw new ChopinError("relay-unavailable", TEAM_PENDING);
    const planId = agentChatIdOf(key);
    if (!this.#deps.plans.agentChatPlanExists(planId)) throw new ChopinError("not-found", "This chat has not begun, so it has no plan to hand off.");
    const made = await this.#deps.handoffs.create({ chatPlanId: planId, key: personHandoffKey(key.person, input.clientRequestId), title: input.title, brief: input.brief });
    const entry = await this.#deps.conversations.recordHandoff(planId, { text: handoffCardText(made.title), handoff: made, clientRequestId: `handoff:${made.documentId}` });
    return { documentId: made.documentId, entry };
  }

  /** Notes every chat of this person in the current scope that this device's lists name (after a start or reconnect). */
  noteKnownChats(): void {
    const scope = this.#deps.profiles.currentScope();
    if (!scope) return;
    const person = this.#deps.personKey();
    this.noteStars();
    for (const { planId, mark } of this.#deps.plans.agentChatPlans()) {
      if (mark.person !== person || agentChatIdOf({ scope, agentId: mark.agentId, person }) !== planId) continue;
      this.#deps.registry.noteBegun(scope, { agentId: mark.agentId, person, planId });
    }
  }

  /**
   * The person's stars document in the current scope is registered (a team's, at the relay), so the relay guards it
   * before any chat of theirs (sync-relay/agent-stars-routes.ts); asked again when the scope or the person may have
   * changed, it costs nothing once registered this run.
   */
  noteStars(): void {
    const scope = this.#deps.profiles.currentScope();
    if (scope) this.#deps.registry.noteStars(scope, this.#deps.personKey());
  }

  #here(): OutboxHere {
    const scope = this.#deps.profiles.currentScope();
    const relayUrl = this.#deps.relayUrl();
    const person = this.#deps.personKey();
    if (!scope) return { scope: { kind: "pending", id: relayUrl ?? "" }, person, relayUrl };
    return { scope: scope.kind === "team" ? { kind: "team", id: scope.teamIndexId } : { kind: "device", id: scope.deviceId }, person, relayUrl };
  }
}

/** A chat's key where its scope is known; null while the relay's team is pending. */
function keyOf(agentId: string, here: Pick<OutboxHere, "scope" | "person">): AgentChatKey | null {
  const { scope, person } = here;
  if (scope.kind === "pending") return null;
  const chatScope: AgentChatScope = scope.kind === "team" ? { kind: "team", teamIndexId: scope.id } : { kind: "device", deviceId: scope.id };
  return { scope: chatScope, agentId, person };
}
