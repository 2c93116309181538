/**
 * The MCP tools over each plan's conversation (issue #25), in the one tool registry's terms: an agent reads a page of
 * a conversation and posts as the person of this app (the app's user is who the agent works for; the entry names
 * them, as the window would). A post answers once it is on disk, and its idempotencyKey is the send's clientRequestId,
 * so a retry never makes a second entry.
 */
import { turnStillRunning } from "../../shared/planner-turns.js";
import { z } from "zod";
import type { ConversationEntryView, ConversationPage, PlannerState } from "../../shared/api.js";
import type { ErrorShape } from "../../shared/errors.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_CONVERSATION_PAGE_ENTRIES, MAX_MESSAGE_BYTES } from "../../shared/limits.js";
import { messageTextSchema } from "../../shared/schema/conversation.js";
import { parseDocumentId } from "../documents/document-id.js";
import { defineTool, type AnyTool } from "../util/tool-registry.js";
import { MAX_MCP_ID_CHARS } from "../util/limits.js";
import type { ToolContext, ToolConversations } from "./tools.js";

const id = z.string().min(1).max(MAX_MCP_ID_CHARS).describe("The plan's document id (or automerge: URL); its conversation is read or written.");

export const CONVERSATION_TOOL_INPUTS = {
  read_conversation: z
    .object({
      id,
      limit: z.number().int().min(1).max(MAX_CONVERSATION_PAGE_ENTRIES).optional().describe(`At most this many entries (default 50, at most ${MAX_CONVERSATION_PAGE_ENTRIES}).`),
      before: z
        .string()
        .regex(/^[0-9a-f]{32}$/, "not an entry id")
        .optional()
        .describe("An entry id from an earlier page: only entries before it (older ones)."),
    })
    .strict(),
  post_message: z
    .object({
      id,
      text: messageTextSchema.describe(`Markdown, at most ${MAX_MESSAGE_BYTES} bytes of UTF-8.`),
      to: z.enum(["planner", "room"]).describe('"planner" addresses the Planner; "room" the people of this plan.'),
      idempotencyKey: z
        .string()
        .min(1)
        .max(MAX_CLIENT_REQUEST_ID_CHARS)
        .describe("Your unique key for this message; a retry with the same key returns the entry the first send made."),
    })
    .strict(),
  reset_planner_ownership: z.object({ id }).strict(),
  invoke_planner: z
    .object({
      id,
      instruction: messageTextSchema.describe(`What to ask the Planner, Markdown, at most ${MAX_MESSAGE_BYTES} bytes of UTF-8.`),
      idempotencyKey: z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS).describe("Your unique key for this request; a retry with the same key returns the entry the first one made."),
    })
    .strict(),
} as const;

/** invoke_planner's refusal for why nobody could run the Planner: the typed codes its description names. */
function invokeRefusal(why: ErrorShape): ChopinError {
  if (why.code === "not-configured") return new ChopinError("planner-off", `${why.message} Nothing was posted.`);
  if (why.code === "forbidden") return new ChopinError("repository-forbidden", `${why.message} Nothing was posted.`);
  return new ChopinError("planner-owner-unavailable", `Nobody runs the Planner in this plan and this app cannot: ${why.message} Nothing was posted.`);
}

function need(context: ToolContext): ToolConversations {
  if (!context.conversations) throw new ChopinError("not-configured", "Conversations are not available here.");
  return context.conversations;
}

/** How a turn stands, as an agent reads it: its answer, its begun mark (answered later, running, or interrupted). */
interface TurnFacts {
  answered: ReadonlySet<string>;
  planner: PlannerState;
}

function turnOf(entry: ConversationEntryView, facts: TurnFacts | null) {
  if (!entry.turn) return {};
  const { id, state, ownershipGeneration } = entry.turn;
  if (state === "answered" || facts === null) return { turn: { id, state, ownershipGeneration } };
  const now = facts.answered.has(id) ? "started" : turnStillRunning(entry.turn, facts.planner) ? "running" : "interrupted";
  return { turn: { id, state: now, ownershipGeneration } };
}

/**
 * An entry as an agent reads it: who wrote it to whom, when, and what, and what it means for the Planner (its turn and
 * generations, the tools a turn used, a failed answer, a denial, a session boundary, a withdrawal or a stop); nothing
 * about this device's own view.
 */
export function shown(entry: ConversationEntryView, facts: TurnFacts | null = null) {
  const { id: entryId, seq, author, to, text, at, boundary, withdrawn, abortTurn, tools, denial, failed, handoff, sessionGeneration } = entry;
  return {
    id: entryId,
    seq,
    author,
    to,
    text,
    at: new Date(at).toISOString(),
    ...turnOf(entry, facts),
    ...(sessionGeneration !== undefined ? { sessionGeneration } : {}),
    ...(boundary ? { sessionBoundary: true } : {}),
    ...(withdrawn ? { withdrawn: true } : {}),
    ...(abortTurn !== undefined ? { stopsTurn: abortTurn } : {}),
    ...(tools ? { tools } : {}),
    ...(denial ? { denial } : {}),
    ...(failed ? { failed: true } : {}),
    // A handoff card: the plan it made (read it with read_document).
    ...(handoff ? { handoff } : {}),
  };
}

export function page(read: ConversationPage, facts: TurnFacts | null = null) {
  return { documentId: read.documentId, entries: read.entries.map((entry) => shown(entry, facts)), hasMore: read.hasMore, total: read.total };
}

/** The channel's Planner state as an agent reads it (issue #25's scriptable surface). */
export function planner(state: PlannerState) {
  const { owner, ownershipGeneration, sessionGeneration, state: running, ownedHere, keeper } = state;
  return { owner, ownershipGeneration, sessionGeneration, state: running, ownedHere, keeper, ...(state.refusal ? { refusal: state.refusal } : {}) };
}

export const CONVERSATION_TOOL_DEFINITIONS: readonly AnyTool<ToolContext>[] = [
  defineTool({
    name: "read_conversation",
    description:
      "Read a plan's conversation: the newest entries (or those before an entry id), oldest first, each with its author (a person, the Planner or the system), whom it addressed, its Markdown and time; hasMore says older entries exist. Planner entries carry their turn {id: the message answered, state, ownershipGeneration} and sessionGeneration: state 'answered' is the turn's answer (with the tools it used; failed: true when it is the model provider's failure, no words of the model's), a begun mark is 'started' (answered later), 'running', or 'interrupted' (never run again); a denial names the tool, the failed permission check and its reason; sessionBoundary marks a new Planner session (/new or a reset); withdrawn and stopsTurn mark a withdrawn message and a stop request; handoff {documentId, title} marks a card naming a plan handed off from an agent chat. Also the plan's Planner state: which app runs the Planner (owner {user, device} or null), the ownership and session generations, and state (unowned, running-here, running-elsewhere, or unknown while the relay cannot be asked).",
    input: CONVERSATION_TOOL_INPUTS.read_conversation,
    errors: ["not-found"],
    async handler(input, context: ToolContext) {
      const conversations = need(context);
      const planId = parseDocumentId(input.id);
      const read = await conversations.read(planId, { limit: input.limit, before: input.before });
      const state = await conversations.plannerState(planId);
      return { ...page(read, { answered: await conversations.answeredTurns(planId), planner: state }), planner: planner(state) };
    },
  }),
  defineTool({
    name: "post_message",
    description:
      'Post a message in a plan\'s conversation as the person of this app, to the Planner ("planner") or to the people of the plan ("room"). Idempotent by idempotencyKey.',
    input: CONVERSATION_TOOL_INPUTS.post_message,
    errors: ["not-found", "document-archived", "storage-failure"],
    async handler(input, context: ToolContext) {
      const { entry, created } = await need(context).post(parseDocumentId(input.id), { text: input.text, to: input.to, clientRequestId: input.idempotencyKey });
      return { entry: shown(entry), created };
    },
  }),
  defineTool({
    name: "reset_planner_ownership",
    description:
      "Reset who runs the Planner in a plan: the app that runs it stops at once, the next message to the Planner lets an eligible app claim it (ownership generation + 1), and the conversation records who reset it. Returns the Planner state after the reset.",
    input: CONVERSATION_TOOL_INPUTS.reset_planner_ownership,
    errors: ["not-found", "relay-unavailable", "forbidden", "timeout"],
    async handler(input, context: ToolContext) {
      return planner(await need(context).resetPlanner(parseDocumentId(input.id)));
    },
  }),
  defineTool({
    name: "invoke_planner",
    description:
      "Ask the Planner of a plan: posts the instruction as the person of this app's message to the Planner and answers once it is on disk here (not when the Planner's turn ends) with the entry id; follow the turn with read_conversation. Refused, with nothing posted, when the Planner is off here and nobody else runs it (planner-off), when nobody runs it and this app cannot (planner-owner-unavailable), or when the plan's repository does not let this person run it (repository-forbidden). Idempotent by idempotencyKey.",
    input: CONVERSATION_TOOL_INPUTS.invoke_planner,
    errors: ["not-found", "document-archived", "planner-off", "planner-owner-unavailable", "repository-forbidden", "storage-failure"],
    async handler(input, context: ToolContext) {
      const conversations = need(context);
      const planId = parseDocumentId(input.id);
      if ((await context.documents.getContent(planId)).detail.archivedAt !== null) {
        throw new ChopinError("document-archived", "This plan is archived: its conversation takes no new messages until it is restored. Nothing was posted.");
      }
      const why = await conversations.whyNobodyRuns(planId);
      if (why) throw invokeRefusal(why);
      const { entry, created } = await conversations.post(planId, { text: input.instruction, to: "planner", clientRequestId: input.idempotencyKey });
      return { entryId: entry.id, created, planner: planner(await conversations.plannerState(planId)) };
    },
  }),
];
