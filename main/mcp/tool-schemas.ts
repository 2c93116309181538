/**
 * Input schemas of the MCP tools, bounded by shared/limits.ts. The same zod schema validates a call and, converted
 * to JSON Schema, is what tools/list advertises, so the two cannot drift apart.
 */
import { z } from "zod";
import {
  MAX_MCP_BRANCH_CHARS,
  MAX_MCP_COMMIT_CHARS,
  MAX_MCP_ID_CHARS,
  MAX_MCP_IDEMPOTENCY_KEY_CHARS,
  MAX_MCP_REVISION_CHARS,
  MAX_REPOSITORY_NAME_CHARS,
  MAX_REPOSITORY_OWNER_CHARS,
  MAX_DOCUMENT_MARKDOWN_BYTES,
  MAX_TITLE_CHARS,
} from "../../shared/limits.js";
import { briefSchema, repositoryNameSchema, repositoryOwnerSchema } from "../../shared/schema/plan-document.js";

const id = z.string().min(1).max(MAX_MCP_ID_CHARS).describe("Document id (or automerge: URL).");
const idempotencyKey = z
  .string()
  .min(1)
  .max(MAX_MCP_IDEMPOTENCY_KEY_CHARS)
  .describe("Your unique key for this write; retrying with the same key and input replays the first result.");
const title = z.string().max(MAX_TITLE_CHARS).describe(`At most ${MAX_TITLE_CHARS} characters.`);
const markdown = z
  .string()
  .describe(`The whole Markdown body, at most ${MAX_DOCUMENT_MARKDOWN_BYTES} bytes of UTF-8 (${MAX_DOCUMENT_MARKDOWN_BYTES / 1024} KiB); a larger body is refused with "too-large".`);

export const repositoryInputSchema = z.union([
  z.object({ owner: repositoryOwnerSchema, name: repositoryNameSchema }),
  z
    .string()
    .max(MAX_REPOSITORY_OWNER_CHARS + 1 + MAX_REPOSITORY_NAME_CHARS)
    .regex(/^[^/]+\/[^/]+$/, 'expected "owner/name"'),
]);

export const TOOL_INPUTS = {
  list_documents: z.object({ includeArchived: z.boolean().optional() }).strict(),
  read_document: z.object({ id }).strict(),
  create_document: z
    .object({
      idempotencyKey,
      title: title.optional().describe(`At most ${MAX_TITLE_CHARS} characters; without one, the Markdown's first heading names the plan.`),
      markdown,
      repository: repositoryInputSchema.optional(),
      baseBranch: z.string().max(MAX_MCP_BRANCH_CHARS).optional(),
      baseCommit: z.string().max(MAX_MCP_COMMIT_CHARS).optional(),
      brief: briefSchema.optional(),
      shared: z.boolean().optional(),
    })
    .strict(),
  update_document: z
    .object({ id, revision: z.string().min(1).max(MAX_MCP_REVISION_CHARS), markdown, idempotencyKey })
    .strict(),
  rename_document: z.object({ id, title }).strict(),
  archive_document: z.object({ id }).strict(),
  restore_document: z.object({ id }).strict(),
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;
export type ToolInput<T extends ToolName> = z.infer<(typeof TOOL_INPUTS)[T]>;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  list_documents: "List the plan documents in this Chopin workspace (live ones; archived too with includeArchived).",
  read_document: "Read one plan document: title, Markdown body, revision (pass it to update_document), brief, provenance.",
  create_document:
    "Create a plan document from a brief and Markdown. Idempotent by idempotencyKey. Records the base branch/commit. " +
    "Shared with the team by default when a team relay is configured; shared: true without one is refused ('no-relay').",
  update_document:
    "Replace a document's Markdown. Pass the revision you read; a stale revision is refused with the current one. People's concurrent edits are merged, not overwritten.",
  rename_document: "Rename a document (1-120 characters after trimming).",
  archive_document: "Archive a document (read-only until restored). Idempotent.",
  restore_document: "Restore an archived document. Idempotent.",
};

export function toolJsonSchema(name: ToolName): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(TOOL_INPUTS[name], { io: "input", unrepresentable: "any" });
  return schema;
}

/** "owner/name" or {owner, name} -> a validated binding. */
export function repositoryBindingOf(input: z.infer<typeof repositoryInputSchema>): { owner: string; name: string } {
  if (typeof input !== "string") return { owner: input.owner, name: input.name };
  const [owner, name] = input.split("/");
  return { owner: repositoryOwnerSchema.parse(owner), name: repositoryNameSchema.parse(name) };
}
