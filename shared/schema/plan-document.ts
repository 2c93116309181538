/**
 * The plan document: one Automerge document per plan. `text` is the canonical Markdown body (Automerge text, edited
 * by keystroke splices); everything else is metadata. Schema changes bump PLAN_DOCUMENT_SCHEMA_VERSION and add a step
 * to migrations.ts; readers accept every version a migration can lift.
 */
import { z } from "zod";
import { AGENT_ID_PATTERN } from "./agent-profiles.js";
import { MAX_AGENT_CHAT_PERSON_CHARS, MAX_MCP_BRANCH_CHARS, MAX_MCP_BRIEF_ITEM_CHARS, MAX_MCP_BRIEF_ITEMS, MAX_MCP_CLIENT_NAME_CHARS, MAX_MCP_COMMIT_CHARS, MAX_GITHUB_NODE_ID_CHARS, MAX_MCP_GOAL_CHARS, MAX_REPOSITORY_NAME_CHARS, MAX_REPOSITORY_OWNER_CHARS, MAX_TITLE_CHARS } from "../limits.js";

export const PLAN_DOCUMENT_SCHEMA_VERSION = 1;

/** GitHub owner: letters, digits and single hyphens; name: letters, digits, '.', '_', '-'. */
export const repositoryOwnerSchema = z
  .string()
  .min(1)
  .max(MAX_REPOSITORY_OWNER_CHARS)
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, "not a GitHub owner name");
export const repositoryNameSchema = z
  .string()
  .min(1)
  .max(MAX_REPOSITORY_NAME_CHARS)
  .regex(/^[A-Za-z0-9._-]+$/, "not a GitHub repository name")
  .refine((name) => name !== "." && name !== "..", "not a GitHub repository name");

export const repositoryBindingSchema = z.object({
  owner: repositoryOwnerSchema,
  name: repositoryNameSchema,
  /** Authoritative identity once bound through GitHub (issue #3); absent for an owner/name-only binding. */
  nodeId: z.string().max(MAX_GITHUB_NODE_ID_CHARS).optional(),
  defaultBranch: z.string().max(MAX_MCP_BRANCH_CHARS).optional(),
  // Optional additions, so documents written before them stay valid: no schema version bump.
  /** GitHub's numeric repository id: followed (GET /repositories/{id}) to track renames and transfers. */
  repositoryId: z.number().int().positive().optional(),
  /** The App installation the repository was chosen through. */
  installationId: z.number().int().positive().optional(),
});
export type RepositoryBinding = z.infer<typeof repositoryBindingSchema>;

export const createdViaSchema = z.enum(["app", "mcp"]);
export type CreatedVia = z.infer<typeof createdViaSchema>;

export const provenanceSchema = z.object({
  baseBranch: z.string().max(MAX_MCP_BRANCH_CHARS).optional(),
  baseCommit: z.string().max(MAX_MCP_COMMIT_CHARS).optional(),
  clientName: z.string().max(MAX_MCP_CLIENT_NAME_CHARS).optional(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

const briefList = z.array(z.string().max(MAX_MCP_BRIEF_ITEM_CHARS)).max(MAX_MCP_BRIEF_ITEMS);
export const briefSchema = z.object({
  goal: z.string().max(MAX_MCP_GOAL_CHARS),
  constraints: briefList.default([]),
  settledDecisions: briefList.default([]),
  openQuestions: briefList.default([]),
  repositoryFindings: briefList.default([]),
});
export type Brief = z.infer<typeof briefSchema>;

/**
 * Marks a plan as an agent chat's own plan (issue #27): the agent drafts there, its conversation is the chat. Fixed by
 * the chat's genesis (shared/node/agent-chat-identity.ts), never written afterwards. Such a plan is listed under
 * Agents, never among plans.
 */
export const agentChatMarkSchema = z.object({
  agentId: z.string().regex(AGENT_ID_PATTERN),
  /** The chat's person: "github:<login>" or "device:<device id>". Only they post, only their apps run it. */
  person: z.string().min(1).max(MAX_AGENT_CHAT_PERSON_CHARS),
});
export type AgentChatMark = z.infer<typeof agentChatMarkSchema>;

export const planDocumentSchema = z.object({
  schemaVersion: z.literal(PLAN_DOCUMENT_SCHEMA_VERSION),
  kind: z.literal("plan"),
  title: z.string().max(MAX_TITLE_CHARS),
  /** Markdown body; Automerge text. */
  text: z.string(),
  repository: repositoryBindingSchema.nullable(),
  createdVia: createdViaSchema,
  provenance: provenanceSchema.nullable(),
  brief: briefSchema.nullable(),
  /** Epoch ms, or null when live. */
  archivedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Automerge actor id -> display name, so version history can say who made a change. */
  authors: z.record(z.string(), z.string()).default({}),
  /** Optional (no schema version bump): present only on an agent chat's own plan. */
  agentChat: agentChatMarkSchema.optional(),
});
export type PlanDocument = z.infer<typeof planDocumentSchema>;
