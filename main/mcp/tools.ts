/**
 * The MCP tools over the document service, defined in the one tool registry (main/util/tool-registry.ts). Each call is
 * validated against its zod schema; every failure becomes a structured tool error (isError, content =
 * {"error":{code,message,details}}), never a thrown protocol error, so an agent can read and act on it. No tool deletes
 * anything. A write answers only once it is on disk.
 */
import type { ToolAgents } from "./agent-tools.js";
import type { ToolAgentChats } from "./agent-chat-tools.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ChopinError, toErrorShape, type ErrorShape } from "../../shared/errors.js";
import type { DocumentId } from "@automerge/automerge-repo";
import type { DocumentDetail, DocumentSummary, PlannerState } from "../../shared/api.js";
import type { ConversationService } from "../conversations/conversation-service.js";
import type { DocumentService } from "../documents/document-service.js";
import { byRecency } from "../documents/search.js";
import { nonObjectArguments } from "./call-arguments.js";
import { defineTool, ToolRegistry, type AnyTool } from "../util/tool-registry.js";
import { parseDocumentId } from "../documents/document-id.js";
import { titleFromMarkdown } from "../documents/title-from-markdown.js";
import { requireRelayToShare } from "../documents/share-guard.js";
import type { ReplayLog } from "./replay.js";
import { repositoryBindingOf, TOOL_INPUTS } from "./tool-schemas.js";

/** The part of the document service the MCP tools use. */
export type ToolDocuments = Pick<
  DocumentService,
  "listDocuments" | "getContent" | "createDocumentWith" | "updateMarkdown" | "renameDocument" | "archiveDocument" | "restoreDocument" | "persist"
>;

export interface ToolContext {
  documents: ToolDocuments;
  replays: ReplayLog;
  /** Name from the client's initialize (clientInfo.name), or "unknown". */
  clientName: string;
  /** The Settings relay address now (null: none): sharing needs one. Absent: no relay (the refusing side). */
  relayUrl?: () => string | null;
  /** Each plan's conversation; the conversation tools are listed only where it is given. */
  conversations?: ToolConversations;
  /** The agent profiles (issue #27); the agent tools are listed only where they are given. */
  agents?: ToolAgents;
  /** This person's chats with agents (issue #27); the chat tools are listed only where they are given, with agents. */
  agentChats?: ToolAgentChats;
}

/**
 * What the conversation tools use: the conversation service's reads, a post that invokes the Planner as the window's
 * does, and the Planner's ownership in the plan.
 */
export interface ToolConversations extends Pick<ConversationService, "read" | "post" | "answeredTurns"> {
  plannerState(planId: DocumentId): Promise<PlannerState>;
  resetPlanner(planId: DocumentId): Promise<PlannerState>;
  /** Why nobody could run a message to the Planner now (invoke_planner refuses then), or null. */
  whyNobodyRuns(planId: DocumentId): Promise<ErrorShape | null>;
}

function listed(summary: DocumentSummary) {
  const { id, title, archivedAt, shared, createdVia, updatedAt } = summary;
  return { id, title, archivedAt, shared, createdVia, updatedAt };
}

function described(detail: DocumentDetail) {
  const { id, title, url, revision, archivedAt, shared, createdVia, repository, provenance, brief } = detail;
  return { id, title, url, revision, archivedAt, shared, createdVia, repository, provenance, brief };
}

/** A write's answer, once the write is on disk (an agent acts on it as done). */
async function persisted(documents: ToolDocuments, summary: DocumentSummary): Promise<Record<string, unknown>> {
  await documents.persist(summary.id);
  return { document: listed(summary) };
}

/**
 * The document tools, each defined once (main/util/tool-registry.ts): name, what it does, its input schema
 * (tool-schemas.ts), the refusals it may answer, and its handler. The MCP server lists and calls them from here.
 */
export const DOCUMENT_TOOL_DEFINITIONS: readonly AnyTool<ToolContext>[] = [
  defineTool({
    name: "list_documents",
    description: "List the plan documents in this Chopin workspace (live ones; archived too with includeArchived).",
    input: TOOL_INPUTS.list_documents,
    errors: [],
    async handler(input, { documents }) {
      const live = await documents.listDocuments({ archived: false });
      const archived = input.includeArchived ? await documents.listDocuments({ archived: true }) : [];
      const all = [...live, ...archived].sort(byRecency);
      return { documents: all.map(listed) };
    },
  }),
  defineTool({
    name: "read_document",
    description: "Read one plan document: title, Markdown body, revision (pass it to update_document), brief, provenance.",
    input: TOOL_INPUTS.read_document,
    errors: ["not-found", "storage-failure", "invalid-document"],
    async handler(input, { documents }) {
      const { detail, markdown } = await documents.getContent(input.id);
      const { id, title, revision, provenance, brief, archivedAt, shared, repository } = detail;
      return { id, title, markdown, revision, provenance, brief, archivedAt, shared, repository };
    },
  }),
  defineTool({
    name: "create_document",
    description:
      "Create a plan document from a brief and Markdown. Idempotent by idempotencyKey. Records the base branch/commit. " +
      "Shared with the team by default when a team relay is configured; shared: true without one is refused ('no-relay').",
    input: TOOL_INPUTS.create_document,
    errors: ["no-relay", "idempotency-conflict", "too-large", "storage-failure"],
    async handler(input, { documents, replays, clientName, relayUrl }) {
      let repository: { owner: string; name: string } | null = null;
      try {
        repository = input.repository === undefined ? null : repositoryBindingOf(input.repository);
      } catch {
        throw new ChopinError("invalid-input", 'repository must be {owner, name} or "owner/name" naming a GitHub repository.');
      }
      // Inside the replay: a retry of a create already made still gets its answer; a refusal records nothing.
      const create = async () => {
        if (input.shared === true) requireRelayToShare(relayUrl?.() ?? null, "create-shared");
        const provenance = {
          ...(input.baseBranch !== undefined ? { baseBranch: input.baseBranch } : {}),
          ...(input.baseCommit !== undefined ? { baseCommit: input.baseCommit } : {}),
          clientName,
        };
        const detail = await documents.createDocumentWith(
          // A blank title (trimmed by the schema) is no title: the Markdown's first heading names the plan then too.
          { title: input.title || titleFromMarkdown(input.markdown), markdown: input.markdown, shared: input.shared, createdVia: "mcp", repository, provenance,
            brief: input.brief ?? null },
          { agent: clientName },
        );
        return { document: described(detail) };
      };
      // Durable before the replay is recorded and the agent told: a crash must not leave a confirmed key with no document.
      return replays.run("create_document", input, "created", create, ({ document }) => documents.persist(document.id));
    },
  }),
  defineTool({
    name: "update_document",
    description:
      "Replace a document's Markdown. Pass the revision you read; a stale revision is refused with the current one. People's concurrent edits are merged, not overwritten. The same Markdown changes nothing (the revision stays).",
    input: TOOL_INPUTS.update_document,
    errors: ["not-found", "revision-conflict", "document-archived", "idempotency-conflict", "too-large", "storage-failure"],
    async handler(input, { documents, replays, clientName }) {
      // Either form of the id (bare or automerge: URL) is the same request for the replay log.
      const request = { ...input, id: parseDocumentId(input.id) };
      const update = async () => {
        const detail = await documents.updateMarkdown(request.id, request.revision, request.markdown, { agent: clientName });
        return { id: detail.id, revision: detail.revision };
      };
      return replays.run("update_document", request, "updated", update, ({ id }) => documents.persist(id));
    },
  }),
  defineTool({
    name: "rename_document",
    description: "Rename a document (1-120 characters after trimming).",
    input: TOOL_INPUTS.rename_document,
    errors: ["not-found", "document-archived", "storage-failure"],
    async handler(input, { documents, clientName }) {
      return persisted(documents, await documents.renameDocument(input.id, input.title, { agent: clientName }));
    },
  }),
  defineTool({
    name: "archive_document",
    description: "Archive a document (read-only until restored). Idempotent.",
    input: TOOL_INPUTS.archive_document,
    errors: ["not-found", "storage-failure"],
    async handler(input, { documents, clientName }) {
      return persisted(documents, await documents.archiveDocument(input.id, { agent: clientName }));
    },
  }),
  defineTool({
    name: "restore_document",
    description: "Restore an archived document. Idempotent.",
    input: TOOL_INPUTS.restore_document,
    errors: ["not-found", "storage-failure"],
    async handler(input, { documents, clientName }) {
      return persisted(documents, await documents.restoreDocument(input.id, { agent: clientName }));
    },
  }),
];

export const DOCUMENT_TOOLS = new ToolRegistry<ToolContext>(DOCUMENT_TOOL_DEFINITIONS);

export function toolError(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: toErrorShape(error) }) }] };
}

export async function callTool(name: string, args: unknown, context: ToolContext, tools: ToolRegistry<ToolContext> = DOCUMENT_TOOLS): Promise<CallToolResult> {
  if (!tools.has(name)) return toolError(new ChopinError("not-found", `There is no tool named ${JSON.stringify(name).slice(0, 80)}.`));
  const notAnObject = nonObjectArguments(args);
  if (notAnObject !== null) return toolError(new ChopinError("invalid-input", `The arguments to ${name} must be an object, not ${notAnObject}.`));
  const outcome = await tools.run(name, args, context);
  if (!outcome.ok) return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: outcome.error }) }] };
  const result = outcome.value as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
}
