/**
 * Input schemas of the MCP tools, bounded by shared/limits.ts. The same zod schema validates a call and, converted
 * to JSON Schema, is what tools/list advertises, so the two cannot drift apart.
 */
import { z } from "zod";
import { MAX_MCP_BRANCH_CHARS, MAX_MCP_BRIEF_ITEM_CHARS, MAX_MCP_BRIEF_ITEMS, MAX_MCP_COMMIT_CHARS, MAX_MCP_GOAL_CHARS, MAX_REPOSITORY_NAME_CHARS, MAX_REPOSITORY_OWNER_CHARS, MAX_DOCUMENT_MARKDOWN_BYTES, MAX_TITLE_CHARS } from "../../shared/limits.js";
import { MAX_MCP_ID_CHARS, MAX_MCP_IDEMPOTENCY_KEY_CHARS, MAX_MCP_REVISION_CHARS } from "../util/limits.js";
import { repositoryNameSchema, repositoryOwnerSchema, type Brief } from "../../shared/schema/plan-document.js";

const id = z.string().min(1).max(MAX_MCP_ID_CHARS).describe("Document id (or automerge: URL).");
const idempotencyKey = z
  .string()
  .min(1)
  .max(MAX_MCP_IDEMPOTENCY_KEY_CHARS)
  .describe("Your unique key for this write; retrying with the same key and input replays the first result.");
// Trimmed first, so the bound is on the title that is kept (the service trims too).
const title = z.string().trim().max(MAX_TITLE_CHARS).describe(`At most ${MAX_TITLE_CHARS} characters.`);

/** Half of a surrogate pair: Automerge stores UTF-8, so it would be saved as U+FFFD without a word (bounds.ts). */
const LONE_SURROGATE = /\p{Surrogate}/u;
/** Control characters other than tab and line breaks: nothing a person reading the brief could see. */
const HIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Any control character, line breaks included: a branch or commit is one token. */
const ANY_CONTROL = /\p{Cc}/u;

/** Text an agent sends that is stored and shown as it is: whole characters, no hidden controls. */
function shownText(max: number, { oneLine }: { oneLine: boolean }) {
  return z
    .string()
    .max(max)
    .refine((s) => !LONE_SURROGATE.test(s), { message: "contains half of a surrogate pair, which is not valid Unicode; send the whole character" })
    .refine((s) => !(oneLine ? ANY_CONTROL : HIDDEN_CONTROL).test(s), {
      message: oneLine ? "must be one line without control characters" : "contains a control character (only tabs and line breaks are allowed)",
    });
}

const briefItems = z.array(shownText(MAX_MCP_BRIEF_ITEM_CHARS, { oneLine: false })).max(MAX_MCP_BRIEF_ITEMS);
/** The brief as an agent sends it: the stored shape (briefSchema), its text checked, unknown fields refused. */
export const briefInputSchema = z
  .object({
    goal: shownText(MAX_MCP_GOAL_CHARS, { oneLine: false }),
    constraints: briefItems.default([]),
    settledDecisions: briefItems.default([]),
    openQuestions: briefItems.default([]),
    repositoryFindings: briefItems.default([]),
  })
  .strict() satisfies z.ZodType<Brief, unknown>;
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
      baseBranch: shownText(MAX_MCP_BRANCH_CHARS, { oneLine: true }).min(1).optional(),
      baseCommit: shownText(MAX_MCP_COMMIT_CHARS, { oneLine: true }).min(1).optional(),
      brief: briefInputSchema.optional(),
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

/** "owner/name" or {owner, name} -> a validated binding. */
export function repositoryBindingOf(input: z.infer<typeof repositoryInputSchema>): { owner: string; name: string } {
  if (typeof input !== "string") return { owner: input.owner, name: input.name };
  const [owner, name] = input.split("/");
  return { owner: repositoryOwnerSchema.parse(owner), name: repositoryNameSchema.parse(name) };
}
