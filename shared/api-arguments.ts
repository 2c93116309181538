/**
 * Every ChopinApi method's arguments as a zod schema (issue #24): the core checks each call against its method's schema
 * at the boundary (main/api/validated-api.ts), as the MCP tools check theirs, before any service reads an argument. A
 * refusal is 'invalid-input' with one sentence naming what was wrong; the services keep only what the schema cannot
 * know (bounds, normalisation, whether a document exists).
 *
 * What must stay true: every method of ChopinApi has a schema (the type below fails to compile otherwise); an options
 * argument that is not a plain object is refused naming what was sent ("not a list", "none was sent"); unknown fields
 * of an options object are dropped, never passed on.
 */
import { z } from "zod";
import type { ApiMethod, ChopinApi } from "./api.js";
import { ChopinError } from "./errors.js";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_CONVERSATION_PAGE_ENTRIES, MAX_MESSAGE_BYTES, MAX_MESSAGE_REFERENCES } from "./limits.js";
import { optionsRefusal } from "./options-object.js";
import { messageTextSchema } from "./schema/conversation.js";
import { AGENT_ID_PATTERN, agentInputFields } from "./schema/agent-profiles.js";
import { utf8Bytes } from "./utf8.js";
import { handoffBriefSchema, handoffTitleSchema } from "./plan-handoff.js";

/** An options object: a plain object with these fields (or, when `optional`, nothing at all). */
function options<T extends z.ZodRawShape>(what: string, shape: T) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) ctx.addIssue({ code: "custom", message: optionsRefusal(value, what, false) });
    })
    .pipe(z.object(shape));
}

function optionalOptions<T extends z.ZodRawShape>(what: string, shape: T) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
        ctx.addIssue({ code: "custom", message: optionsRefusal(value, what, true) });
      }
    })
    .pipe(z.object(shape).optional());
}

const documentId = z.string({ error: "A document id is text (the plan's id, or its automerge: URL)." });
const versionId = z.string({ error: "A version id is text, as listVersions gives it." });
const entryId = z.string({ error: "An entry id is text, as a conversation page gives it." }).regex(/^[0-9a-f]{32}$/, "That is not an entry id.");
const heads = z.array(z.string(), { error: "Heads are a list of change hashes." });
const agentId = z.string({ error: "An agent id is text, as listAgents gives it." }).regex(AGENT_ID_PATTERN, "That is not an agent id.");
const clientRequestId = z
  .string({ error: "A clientRequestId is text." })
  .min(1, "A clientRequestId cannot be empty.")
  .max(MAX_CLIENT_REQUEST_ID_CHARS, `A clientRequestId is at most ${MAX_CLIENT_REQUEST_ID_CHARS} characters.`);
const conversationQuery = optionalOptions("A conversation query", {
  limit: z
    .number({ error: "limit must be a number." })
    .int("limit must be a whole number.")
    .min(1, "limit must be at least 1.")
    .max(MAX_CONVERSATION_PAGE_ENTRIES, `limit is at most ${MAX_CONVERSATION_PAGE_ENTRIES}.`)
    .optional(),
  before: entryId.optional(),
});
const text = (what: string) => z.string({ error: `${what} must be text.` });
const flag = (what: string) => z.boolean({ error: `${what} must be true or false.` });

/** The schema of each method's argument list; a missing method does not compile. */
export const API_ARGUMENTS = {
  listDocuments: z.tuple([
    optionalOptions("A document list query", {
      query: text("A search query").optional(),
      archived: z.boolean({ error: "archived must be true or false (or left out for the live documents)." }).optional(),
    }),
  ]),
  getDocument: z.tuple([documentId]),
  createDocument: z.tuple([
    optionalOptions("A new document's details", {
      title: text("A title").optional(),
      markdown: text("A plan's Markdown").optional(),
      shared: flag("shared").optional(),
    }),
  ]),
  renameDocument: z.tuple([documentId, z.unknown()]),
  archiveDocument: z.tuple([documentId]),
  restoreDocument: z.tuple([documentId]),
  deleteDocument: z.tuple([documentId]),
  shareDocument: z.tuple([documentId]),
  restoreDamagedFromTeam: z.tuple([documentId]),
  waitSaved: z.tuple([documentId, heads]),
  openSnapshot: z.tuple([documentId]),
  readSavedDocument: z.tuple([documentId]),
  exportMarkdown: z.tuple([documentId]),
  importMarkdown: z.tuple([
    options("A Markdown file", {
      name: text("A file's name"),
      contentBase64: text("A file's bytes (base64)"),
    }),
  ]),
  listVersions: z.tuple([documentId]),
  readVersion: z.tuple([documentId, versionId]),
  restoreVersion: z.tuple([documentId, versionId, heads.optional()]),
  getSettings: z.tuple([]),
  updateSettings: z.tuple([
    // Field contents are the settings service's to judge (its sentences name each setting).
    options("Settings", { displayName: z.unknown().optional(), relayUrl: z.unknown().optional(), relayToken: z.unknown().optional() }),
  ]),
  getMcpInfo: z.tuple([]),
  getIdentity: z.tuple([]),
  getSyncStatus: z.tuple([]),
  getAuthState: z.tuple([]),
  startSignIn: z.tuple([
    optionalOptions("Sign-in options", { staySignedIn: flag("staySignedIn").optional(), plaintextConsent: flag("plaintextConsent").optional() }),
  ]),
  cancelSignIn: z.tuple([]),
  signOut: z.tuple([]),
  listInstallations: z.tuple([]),
  listInstallationRepositories: z.tuple([z.number({ error: "An installation id is a number." })]),
  bindRepository: z.tuple([
    documentId,
    options("A repository choice", {
      installationId: z.number({ error: "An installation id is a number." }),
      repositoryNodeId: text("A repository's node id"),
    }),
  ]),
  unbindRepository: z.tuple([documentId]),
  refreshRepositoryBinding: z.tuple([documentId]),
  readConversation: z.tuple([
    documentId,
    conversationQuery,
  ]),
  postMessage: z.tuple([
    documentId,
    options("A message", {
      text: z.string({ error: "A message's text must be text." }).pipe(messageTextSchema),
      to: z.enum(["planner", "room"], { error: 'A message goes to "planner" or "room".' }),
      clientRequestId,
      references: z
        .array(documentId, { error: "references is a list of document ids." })
        .max(MAX_MESSAGE_REFERENCES, `A message can reference at most ${MAX_MESSAGE_REFERENCES} documents.`)
        .optional(),
    }),
  ]),
  getConversationDraft: z.tuple([documentId]),
  setConversationDraft: z.tuple([documentId, z.string({ error: "A draft must be text." }).refine((t) => utf8Bytes(t) <= MAX_MESSAGE_BYTES, `A draft is at most ${MAX_MESSAGE_BYTES} bytes of UTF-8.`)]),
  markConversationRead: z.tuple([documentId, entryId]),
  withdrawMessage: z.tuple([documentId, entryId]),
  abortPlannerTurn: z.tuple([documentId]),
  getPlannerState: z.tuple([documentId]),
  resetPlannerOwnership: z.tuple([documentId]),
  getPlannerSettings: z.tuple([]),
  updatePlannerSettings: z.tuple([
    // The provider's fields are the Planner settings' to judge (main/planner/planner-settings.ts names each field).
    options("The Planner's settings", { enabled: flag("enabled").optional(), provider: z.unknown().optional() }),
  ]),
  getExperimentalSettings: z.tuple([]),
  updateExperimentalSettings: z.tuple([options("Experimental settings", { enableAgentChat: flag("enableAgentChat").optional() })]),
  listAgents: z.tuple([]),
  createAgent: z.tuple([
    options("A new agent's details", {
      name: agentInputFields.name,
      color: agentInputFields.color.optional(),
      instructions: agentInputFields.instructions.optional(),
      model: agentInputFields.model.optional(),
      tools: agentInputFields.tools.optional(),
    }),
  ]),
  updateAgent: z.tuple([
    agentId,
    options("An agent's changes", {
      name: agentInputFields.name.optional(),
      color: agentInputFields.color.optional(),
      instructions: agentInputFields.instructions.optional(),
      model: agentInputFields.model.optional(),
      tools: agentInputFields.tools.optional(),
    }),
  ]),
  removeAgent: z.tuple([agentId]),
  getAgentSidebar: z.tuple([]),
  setAgentStarred: z.tuple([agentId, flag("starred")]),
  recordAgentChatVisit: z.tuple([agentId]),
  readAgentChat: z.tuple([
    agentId,
    conversationQuery,
  ]),
  sendAgentChat: z.tuple([
    agentId,
    options("A message", {
      text: z.string({ error: "A message's text must be text." }).pipe(messageTextSchema),
      clientRequestId,
    }),
  ]),
  discardAgentChatSend: z.tuple([agentId, clientRequestId]),
  stopAgentChat: z.tuple([agentId]),
  listAgentChats: z.tuple([]),
  handOffAgentChatPlan: z.tuple([
    agentId,
    options("A handoff", { title: handoffTitleSchema, brief: handoffBriefSchema, clientRequestId }),
  ]),
} satisfies { [M in ApiMethod]: z.ZodType<unknown[]> };

/** Every argument, and where it goes wrong, in one sentence: "path: problem" for a field, the sentence itself else. */
function sentenceOf(method: ApiMethod, issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (!first) return `The arguments to ${method} are not valid.`;
  // A custom issue (an options argument) or a type error with our own words is a whole sentence already.
  if (first.code === "custom" || /[.!?]$/.test(first.message)) return first.message;
  const where = first.path.slice(1).join(".");
  return `The arguments to ${method} are not valid: ${where ? `${where}: ` : ""}${first.message}.`;
}

export const ARGUMENTS_NOT_A_LIST = "Arguments must be sent as a list.";

/** The arguments of a call to `method`, as its schema reads them; refuses with 'invalid-input' and a sentence. */
export function checkArguments<M extends ApiMethod>(method: M, args: unknown): Parameters<ChopinApi[M]> {
  if (!Array.isArray(args)) throw new ChopinError("invalid-input", ARGUMENTS_NOT_A_LIST);
  const schema = API_ARGUMENTS[method];
  // An argument left out is read as undefined, so a required options argument is refused in its own words.
  const expected = (schema as z.ZodTuple)._zod.def.items.length;
  const padded = args.length < expected ? [...args, ...new Array<undefined>(expected - args.length).fill(undefined)] : args;
  const parsed = schema.safeParse(padded);
  if (!parsed.success) throw new ChopinError("invalid-input", sentenceOf(method, parsed.error.issues), { method });
  return parsed.data as Parameters<ChopinApi[M]>;
}
