/**
 * The MCP tools over this person's chats with agents (issue #27), in the one tool registry's terms, through the same
 * service the window uses (main/agent-chat/): `read_agent_chat` (a read only: a chat never used is a null
 * conversation and nothing is made), `send_agent_chat` (idempotent by idempotencyKey, the send's clientRequestId),
 * `stop_agent_chat`, `list_agent_chats` (the scope's table of chats, teammates' included), `discard_agent_chat_send`
 * (a send still waiting in this device's outbox) and `hand_off_agent_chat_plan` (the chat's drafted plan as a new plan
 * and a card, idempotent by its key), the last two as the window's Discard and Hand off. An agent is named by its id or
 * its name (any case), as list_agents gives them. Refused with 'agent-chat-disabled' while agent chat is off here
 * (nothing read or written) and 'agent-not-found' for an agent the profiles do not hold (a discard excepted: a removed
 * agent's waiting sends can still go, named by the agent's id).
 */
import { z } from "zod";
import type { AgentChat, AgentChatNotBegun } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import {
  MAX_AGENT_ID_CHARS,
  MAX_AGENT_NAME_CHARS,
  MAX_CLIENT_REQUEST_ID_CHARS,
  MAX_CONVERSATION_PAGE_ENTRIES,
  MAX_HANDOFF_BRIEF_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_TITLE_CHARS,
} from "../../shared/limits.js";
import { messageTextSchema } from "../../shared/schema/conversation.js";
import { handoffBriefSchema, handoffTitleSchema } from "../../shared/plan-handoff.js";
import type { AgentChatService } from "../agent-chat/agent-chat-service.js";
import { defineTool, type AnyTool } from "../util/tool-registry.js";
import { page, planner, shown } from "./conversation-tools.js";
import type { ToolContext } from "./tools.js";

/** What the chat tools use: the chat service's reads and the person's actions in a chat. */
export type ToolAgentChats = Pick<AgentChatService, "read" | "send" | "stop" | "list" | "discard" | "handOff">;

const agent = z
  .string()
  .min(1)
  .max(Math.max(MAX_AGENT_ID_CHARS, MAX_AGENT_NAME_CHARS))
  .describe("The agent: its id or its name (any case), as list_agents gives them.");

export const AGENT_CHAT_TOOL_INPUTS = {
  read_agent_chat: z
    .object({
      agent,
      limit: z.number().int().min(1).max(MAX_CONVERSATION_PAGE_ENTRIES).optional().describe(`At most this many entries, the newest (default 50, at most ${MAX_CONVERSATION_PAGE_ENTRIES}).`),
    })
    .strict(),
  send_agent_chat: z
    .object({
      agent,
      text: messageTextSchema.describe(`Markdown, at most ${MAX_MESSAGE_BYTES} bytes of UTF-8.`),
      idempotencyKey: z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS).describe("Your unique key for this message; a retry with the same key returns the entry the first send made."),
    })
    .strict(),
  stop_agent_chat: z.object({ agent }).strict(),
  list_agent_chats: z.object({}).strict(),
  discard_agent_chat_send: z
    .object({
      agent,
      idempotencyKey: z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS).describe("The key the send was made with (send_agent_chat's idempotencyKey)."),
    })
    .strict(),
  hand_off_agent_chat_plan: z
    .object({
      agent,
      title: handoffTitleSchema.describe(`The new plan's title: one line, at most ${MAX_TITLE_CHARS} characters.`),
      brief: handoffBriefSchema.describe(`Markdown placed above the chat's drafted plan, at most ${MAX_HANDOFF_BRIEF_BYTES} bytes of UTF-8.`),
      idempotencyKey: z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS).describe("Your unique key for this handoff; a retry with the same key returns the same plan and card."),
    })
    .strict(),
} as const;

function need(context: ToolContext): { chats: ToolAgentChats; profiles: NonNullable<ToolContext["agents"]> } {
  if (!context.agentChats || !context.agents) throw new ChopinError("not-configured", "Agent chat is not available here.");
  return { chats: context.agentChats, profiles: context.agents };
}

/**
 * The agent's id from its id or name ('agent-chat-disabled' while off, as the list refuses; 'agent-not-found').
 * `removedToo`: a name no profile holds is taken as a removed agent's id (what may still be done with its chat is the
 * service's to say).
 */
async function agentIdOf(context: ToolContext, named: string, removedToo = false): Promise<string> {
  const { agents } = await need(context).profiles.list();
  const found = agents.find((a) => a.id === named) ?? agents.find((a) => a.name.localeCompare(named, "en", { sensitivity: "base" }) === 0);
  if (!found && removedToo) return named;
  if (!found) throw new ChopinError("agent-not-found", `There is no agent with the id or name “${named}”: list_agents lists them. Nothing was read or sent.`);
  return found.id;
}

/** A chat of only sends waiting in this device's outbox has no conversation yet: `conversation: null` and its outbox. */
function chatView(chat: AgentChat | AgentChatNotBegun) {
  if (chat.planId === null) return { planId: null, state: chat.state, conversation: null, outbox: chat.outbox };
  return { planId: chat.planId, state: chat.state, conversation: page(chat.page), planner: planner(chat.planner), outbox: chat.outbox };
}

export const AGENT_CHAT_TOOL_DEFINITIONS: readonly AnyTool<ToolContext>[] = [
  defineTool({
    name: "read_agent_chat",
    description:
      "Read this person's chat with an agent (experimental: agent chat must be on in this app's Settings → Experimental, else 'agent-chat-disabled'). A read only: a chat never used answers {conversation: null} and nothing is made. Otherwise its planId (the chat's own plan, where the agent drafts: read it with read_document), state ('active' from a message to the agent until its answer is in, else 'waiting'), the newest entries of its conversation (as read_conversation gives them), who runs the agent, and outbox: this app's messages not delivered yet (status 'waiting', or 'failed' with its error). A chat whose only messages wait in the outbox has planId null and conversation null.",
    input: AGENT_CHAT_TOOL_INPUTS.read_agent_chat,
    errors: ["agent-chat-disabled", "agent-not-found", "relay-unavailable"],
    async handler(input, context) {
      const chat = await need(context).chats.read(await agentIdOf(context, input.agent), input.limit !== undefined ? { limit: input.limit } : undefined);
      return chat === null ? { conversation: null } : chatView(chat);
    },
  }),
  defineTool({
    name: "send_agent_chat",
    description:
      "Send a message to an agent in this person's chat with it, as the person of this app (experimental: 'agent-chat-disabled' while agent chat is off here). The first send begins the chat; the agent answers in the chat when this person's app runs it (follow with read_agent_chat). Idempotent by idempotencyKey (reused for another text or agent: 'invalid-input'). When it cannot be delivered now (the team not known yet) it answers {queued: true, message} and this app delivers it, in order, when it can.",
    input: AGENT_CHAT_TOOL_INPUTS.send_agent_chat,
    errors: ["agent-chat-disabled", "agent-not-found", "relay-unavailable", "invalid-input", "too-large", "storage-failure"],
    async handler(input, context) {
      const sent = await need(context).chats.send(await agentIdOf(context, input.agent), { text: input.text, clientRequestId: input.idempotencyKey });
      if (sent.queued) return { queued: true, planId: null, entry: null, created: sent.created, message: sent.message };
      return { queued: false, planId: sent.planId, entry: shown(sent.entry), created: sent.created };
    },
  }),
  defineTool({
    name: "stop_agent_chat",
    description: "Stop the agent's running turn in this person's chat with it; recorded in the chat as who stopped it. 'not-found' when no turn is running.",
    input: AGENT_CHAT_TOOL_INPUTS.stop_agent_chat,
    errors: ["agent-chat-disabled", "agent-not-found", "not-found"],
    async handler(input, context) {
      return { entry: shown(await need(context).chats.stop(await agentIdOf(context, input.agent))) };
    },
  }),
  defineTool({
    name: "list_agent_chats",
    description:
      "List every chat with an agent in this app's scope, teammates' included (experimental: 'agent-chat-disabled' while agent chat is off here): from the relay's table of chats for a team ('relay-unavailable' while it cannot be reached), from this device's without a relay. Each names its agent, its planId (read a teammate's with read_conversation or read_document: only its person posts in it or changes its plan), whose it is and whether it is this person's (mine). Reads only.",
    input: AGENT_CHAT_TOOL_INPUTS.list_agent_chats,
    errors: ["agent-chat-disabled", "relay-unavailable"],
    async handler(_input, context) {
      return { chats: await need(context).chats.list() };
    },
  }),
  defineTool({
    name: "discard_agent_chat_send",
    description:
      "Discard a message to an agent that waits in this app's outbox, not delivered yet (read_agent_chat lists them under outbox, 'waiting' or 'failed'), answering what it was; the key is then free. Never one delivered ('revision-conflict': it is in the conversation). 'not-found' when nothing waits under that key in this chat. Works for an agent since removed, named by its id.",
    input: AGENT_CHAT_TOOL_INPUTS.discard_agent_chat_send,
    errors: ["agent-chat-disabled", "not-found", "revision-conflict", "storage-failure"],
    async handler(input, context) {
      return { discarded: await need(context).chats.discard(await agentIdOf(context, input.agent, true), input.idempotencyKey) };
    },
  }),
  defineTool({
    name: "hand_off_agent_chat_plan",
    description:
      "Hand off the plan drafted in this person's chat with an agent as a new plan: its Markdown is the brief, then the chat plan's; shared with the team when the chat is the team's. The plan is stored and listed before the chat shows its card; a retry with the same idempotencyKey returns the same plan and card. The chat's own plan stays as it is. 'not-found' for a chat never begun.",
    input: AGENT_CHAT_TOOL_INPUTS.hand_off_agent_chat_plan,
    errors: ["agent-chat-disabled", "agent-not-found", "not-found", "invalid-input", "too-large", "relay-unavailable", "storage-failure"],
    async handler(input, context) {
      const made = await need(context).chats.handOff(await agentIdOf(context, input.agent), { title: input.title, brief: input.brief, clientRequestId: input.idempotencyKey });
      return { documentId: made.documentId, entry: shown(made.entry) };
    },
  }),
];
