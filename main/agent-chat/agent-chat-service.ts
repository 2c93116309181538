/**
 * A person's chats with agents (issue #27), on what exists: a chat is a plan (the chat's own plan, at an id derived
 * from the profiles' scope, the agent and the person: shared/node/agent-chat-identity.ts) and that plan's ordinary
 * conversation, run by the Planner's lease, turns and fenced writes with the agent's profile applied
 * (main/core/compose-planner.ts). This service only finds the chat and says its state; it keeps no transcript and
 * runs nothing of its own.
 *
 * What must stay true:
 *  - while agent chat is off, every call refuses with 'agent-chat-disabled' and nothing is read, opened or written;
 *    an agent the current profiles do not hold is 'agent-not-found';
 *  - reading a chat never used makes nothing (no document, no handle, no listing, no lease watched);
 *  - the first send begins the chat's plan at its derived id from the shared genesis, so first sends from two windows
 *    or two devices of the person begin one chat; a retried send (same clientRequestId) is the same entry;
 *  - only the chat's person posts in it (ConversationService refuses others 'forbidden') and only their apps run it
 *    (PlannerOwnership's eligibility).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { AgentChat, AgentChatSendInput, AgentChatSendResult, AgentProfile, ConversationEntryView, ConversationPage, ConversationQuery, DocumentDetail, PlannerState, PostMessageInput, PostMessageResult } from "../../shared/api.js";
import { agentChatState } from "../../shared/agent-chat-state.js";
import { ChopinError } from "../../shared/errors.js";
import { agentChatGenesis, agentChatIdOf, type AgentChatKey, type AgentChatScope } from "../../shared/node/agent-chat-identity.js";
import type { AgentChatPlanStart } from "../documents/agent-chat-plan.js";
import type { ConversationEntry } from "../../shared/schema/conversation.js";
import { entryTurn } from "../../shared/planner-turns.js";

export interface AgentChatServiceDeps {
  profiles: {
    /** The agent's profile now ('agent-chat-disabled' while off, 'agent-not-found' for an unknown id). */
    find(agentId: string): Promise<AgentProfile>;
    /** The scope the profiles apply in now; null while a relay's team is not known yet. */
    currentScope(): AgentChatScope | null;
  };
  /** This app's person as the conversation keys authors: "github:<login>", else "device:<device id>". */
  personKey(): string;
  plans: {
    agentChatPlanExists(documentId: DocumentId): boolean;
    openOrBeginAgentChatPlan(start: AgentChatPlanStart): Promise<DocumentDetail>;
  };
  conversations: {
    read(planId: DocumentId, query?: ConversationQuery): Promise<ConversationPage>;
    /** Every stored entry (the kept transcript): the state is read from these, not from views of them. */
    entries(planId: DocumentId): Promise<ConversationEntry[]>;
    post(planId: DocumentId, input: PostMessageInput): Promise<PostMessageResult>;
    requestAbort(planId: DocumentId): Promise<ConversationEntryView>;
  };
  planner: {
    state(planId: DocumentId): Promise<PlannerState>;
    /** A message to the agent was posted: this app claims the chat if nobody runs it and it may. */
    asked(planId: DocumentId): void;
  };
}

export class AgentChatService {
  readonly #deps: AgentChatServiceDeps;

  constructor(deps: AgentChatServiceDeps) {
    this.#deps = deps;
  }

  async read(agentId: string, query?: ConversationQuery): Promise<AgentChat | null> {
    const { planId } = await this.#chat(agentId);
    if (!this.#deps.plans.agentChatPlanExists(planId)) return null;
    const [page, planner] = await Promise.all([this.#deps.conversations.read(planId, query), this.#deps.planner.state(planId)]);
    // The state asks every entry, not only this page's (an older pending message keeps the chat active): from the
    // kept transcript, without a view of each.
    const all = (await this.#deps.conversations.entries(planId)).map((entry) => {
      const turn = entryTurn(entry);
      return { id: entry.id, author: entry.author, to: entry.to, ...(entry.withdrawnAt !== undefined ? { withdrawn: true as const } : {}), ...(turn ? { turn } : {}) };
    });
    return { planId, page, state: agentChatState(all, planner), planner };
  }

  async send(agentId: string, input: AgentChatSendInput): Promise<AgentChatSendResult> {
    const { planId, key } = await this.#chat(agentId);
    // Idempotent and one at a time per plan (the document service's queue); the same bytes on every device.
    await this.#deps.plans.openOrBeginAgentChatPlan({
      documentId: planId,
      mark: { agentId: key.agentId, person: key.person },
      genesis: () => agentChatGenesis(key),
      shared: key.scope.kind === "team",
    });
    const { entry, created } = await this.#deps.conversations.post(planId, { text: input.text, to: "planner", clientRequestId: input.clientRequestId });
    this.#deps.planner.asked(planId);
    return { planId, entry, created };
  }

  async stop(agentId: string): Promise<ConversationEntryView> {
    const { planId } = await this.#chat(agentId);
    if (!this.#deps.plans.agentChatPlanExists(planId)) throw new ChopinError("not-found", "This chat has not begun, so no turn of the agent is running.");
    return this.#deps.conversations.requestAbort(planId);
  }

  /** The chat's key and plan id for this app's person; refuses as the profiles do, or while the team is pending. */
  async #chat(agentId: string): Promise<{ planId: DocumentId; key: AgentChatKey }> {
    await this.#deps.profiles.find(agentId);
    const scope = this.#deps.profiles.currentScope();
    if (!scope) {
      throw new ChopinError("relay-unavailable", "The team's agents have not reached this device yet: it has not reached the relay since it was set up. Try again once it is connected.");
    }
    const key: AgentChatKey = { scope, agentId, person: this.#deps.personKey() };
    return { planId: agentChatIdOf(key), key };
  }
}
