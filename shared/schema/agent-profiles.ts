/**
 * Agent profiles (issue #27): the agents a team keeps, each a name, an avatar colour, instructions (Markdown), the model
 * it runs on (a provider's kind and model name, or "the team default") and the tools it may use. They live in one
 * Automerge document per scope (this device, or a relay's team: main/agents/), as a map keyed by profile id, so two
 * people adding agents at once add two, and edits of different fields of one profile both stay.
 *
 * Everything read from that document is checked here: profiles arrive from teammates' devices, whatever app they run.
 * The same field schemas check a window's input (shared/api-arguments.ts), so whatever can be written reads back.
 *
 * What must stay true: the Planner's id is PLANNER_AGENT_ID on every device and in every version; a name, instructions
 * and a model's name are stored as scalar strings (one whole value per write: two people rewriting the same
 * instructions at once end with one of the two texts, never a character merge neither wrote, as with titles); the
 * model choice is replaced as one object (a provider is never paired with another write's model name); a provider's
 * address and key are never part of a profile (they are each device's secrets, Settings → Planner).
 */
import { next as A } from "@automerge/automerge";
import { z } from "zod";
import { PLANNER_PROVIDER_TYPES } from "../api.js";
import { MAX_AGENT_ID_CHARS, MAX_AGENT_INSTRUCTIONS_BYTES, MAX_AGENT_MODEL_CHARS, MAX_AGENT_NAME_CHARS } from "../limits.js";
import { utf8Bytes } from "../utf8.js";

export const AGENT_PROFILES_SCHEMA_VERSION = 1;

/** The built-in Planner's profile: present on every device and team, never removed, its name fixed (@Planner). */
export const PLANNER_AGENT_ID = "planner";
export const PLANNER_AGENT_NAME = "Planner";

/**
 * The tools a profile may allow, by their registry names: the Planner's plan tools (main/planner/plan-tools.ts), its
 * reference reader (main/planner/reference-tool.ts), the read-only repository tools (main/github/repository-tools/)
 * and an agent chat's plan handoff (main/planner/handoff-tool.ts, offered only in agent chats).
 * main/agents/agent-tool-names.test.ts keeps this list equal to theirs.
 */
export const AGENT_TOOL_NAMES = [
  "read_plan",
  "edit_plan",
  "read_reference",
  "read_repository_file",
  "list_repository_tree",
  "repository_history",
  "search_repository",
  "list_pull_requests",
  "pull_request_read",
  "hand_off_plan",
] as const;
export type AgentToolName = (typeof AGENT_TOOL_NAMES)[number];

/**
 * The tools that change something (the chat's plan, or a new plan): a profile chooses them, a new profile has none of
 * them, and a stopped turn may not use them.
 */
export const MUTATING_AGENT_TOOLS: readonly AgentToolName[] = ["edit_plan", "hand_off_plan"];

/**
 * The Planner's tools as the profiles document's genesis records them (main/agents/agent-profiles-identity.ts):
 * frozen, because the genesis never changes for schema version 1. A tool added since that the Planner allows by
 * default is in PLANNER_LATER_DEFAULT_TOOLS: the Planner's record allows it unless the record declines it
 * (`declinedTools`, written when someone turns it off), so the Planner allows it by default on every team.
 */
export const PLANNER_GENESIS_TOOLS = [
  "read_plan",
  "edit_plan",
  "read_reference",
  "read_repository_file",
  "list_repository_tree",
  "repository_history",
  "search_repository",
  "list_pull_requests",
  "pull_request_read",
] as const satisfies readonly AgentToolName[];
export const PLANNER_LATER_DEFAULT_TOOLS: readonly AgentToolName[] = ["hand_off_plan"];

/** Avatar colours by name: each theme gives every name its own shade (renderer/src/styles.css, --agent-<name>). */
export const AGENT_COLORS = ["blue", "green", "teal", "purple", "pink", "orange", "red", "gray"] as const;
export type AgentColor = (typeof AGENT_COLORS)[number];

/** The model providers a profile can name; "copilot" is the person's GitHub Copilot access. */
export const AGENT_PROVIDERS = ["copilot", ...PLANNER_PROVIDER_TYPES] as const;
export type AgentProvider = (typeof AGENT_PROVIDERS)[number];

/** "team-default": whatever the app running the agent is configured with (Settings → Planner on that app). */
export type AgentModelChoice = { kind: "team-default" } | { kind: "provider"; provider: AgentProvider; model: string };

/** A new profile's tools when none are named: every tool that only reads (editing and handing off are chosen). */
export const DEFAULT_AGENT_TOOLS: readonly AgentToolName[] = AGENT_TOOL_NAMES.filter((name) => !MUTATING_AGENT_TOOLS.includes(name));
export const DEFAULT_AGENT_COLOR: AgentColor = "blue";
export const PLANNER_AGENT_COLOR: AgentColor = "purple";

/** How the form names each field, so a refusal's sentence points at the one to fix. */
export const AGENT_PROFILE_FIELDS = { name: "Name", color: "Colour", instructions: "Instructions", model: "Model", tools: "Tools" } as const;
const F = AGENT_PROFILE_FIELDS;

/** A profile id: "planner", or the 32 hex digits the core makes; a teammate's app may have made any id of this alphabet. */
export const AGENT_ID_PATTERN = new RegExp(`^[a-z0-9-]{1,${MAX_AGENT_ID_CHARS}}$`);

const LONE_SURROGATE = /\p{Surrogate}/u;
/** C0 and C1 controls, bidirectional overrides and isolates: a name is one visible line. */
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** Instructions are Markdown: line breaks and tabs are text, other controls and direction overrides are not. */
const INSTRUCTIONS_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const INVISIBLE = /[\p{Cf}\s]/gu;

/** A name as stored: trimmed, one visible line, within the bound. */
export const agentNameSchema = z
  .string({ error: `${F.name}: an agent's name is text.` })
  .refine((name) => !LONE_SURROGATE.test(name), `${F.name}: contains half of a surrogate pair, which is not valid Unicode; send the whole character.`)
  .refine((name) => !NAME_FORBIDDEN.test(name), `${F.name}: is one line, without control or direction override characters.`)
  .refine((name) => name.replace(INVISIBLE, "").length > 0, `${F.name}: an agent needs a name.`)
  .refine((name) => name === name.trim(), `${F.name}: starts and ends with a visible character.`)
  .refine((name) => name.length <= MAX_AGENT_NAME_CHARS, `${F.name}: at most ${MAX_AGENT_NAME_CHARS} characters.`);

export const agentInstructionsSchema = z
  .string({ error: `${F.instructions}: instructions are Markdown text.` })
  .refine((text) => !LONE_SURROGATE.test(text), `${F.instructions}: contain half of a surrogate pair, which is not valid Unicode; send the whole character.`)
  .refine((text) => !INSTRUCTIONS_FORBIDDEN.test(text), `${F.instructions}: cannot contain control or direction override characters.`)
  .refine((text) => utf8Bytes(text) <= MAX_AGENT_INSTRUCTIONS_BYTES, `${F.instructions}: at most ${MAX_AGENT_INSTRUCTIONS_BYTES} bytes of UTF-8.`);

export const agentColorSchema = z.enum(AGENT_COLORS, { error: `${F.color}: one of ${AGENT_COLORS.join(", ")}.` });

const modelNameSchema = z
  .string({ error: `${F.model}: a model's name is text.` })
  .refine((name) => !LONE_SURROGATE.test(name) && !NAME_FORBIDDEN.test(name), `${F.model}: a model's name is one line of plain characters.`)
  .refine((name) => name.trim().length > 0, `${F.model}: name the model, or choose the team default.`)
  .refine((name) => name === name.trim(), `${F.model}: a model's name starts and ends with a visible character.`)
  .refine((name) => name.length <= MAX_AGENT_MODEL_CHARS, `${F.model}: a model's name is at most ${MAX_AGENT_MODEL_CHARS} characters.`);

const providerSchema = z.enum(AGENT_PROVIDERS, { error: `${F.model}: the provider is one of ${AGENT_PROVIDERS.join(", ")}.` });

/** Storage-side: a string, or the RawString Automerge reads a scalar string back as. */
const scalar = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value instanceof A.RawString ? value.toString() : value), schema);

function modelChoice(name: z.ZodType<string>) {
  return z.discriminatedUnion(
    "kind",
    [z.object({ kind: z.literal("team-default") }), z.object({ kind: z.literal("provider"), provider: providerSchema, model: name })],
    { error: `${F.model}: either {kind: "team-default"} or {kind: "provider", provider, model}.` },
  );
}

/** A window's or an agent's input: names and model names are trimmed before they are checked. */
const trimmed = (schema: z.ZodType<string, string>, what: string) =>
  z
    .string({ error: what })
    .transform((text) => text.trim())
    .pipe(schema);

export const agentInputFields = {
  name: trimmed(agentNameSchema, `${F.name}: an agent's name is text.`),
  color: agentColorSchema,
  instructions: agentInstructionsSchema,
  model: modelChoice(trimmed(modelNameSchema, `${F.model}: a model's name is text.`)),
  tools: z
    .array(z.enum(AGENT_TOOL_NAMES, { error: `${F.tools}: each is one of ${AGENT_TOOL_NAMES.join(", ")}.` }), { error: `${F.tools}: a list of tool names.` })
    .max(AGENT_TOOL_NAMES.length * 2, `${F.tools}: at most ${AGENT_TOOL_NAMES.length} tools, each named once.`)
    .transform((names) => AGENT_TOOL_NAMES.filter((name) => names.includes(name))),
};

/**
 * One stored profile, as read from the document. A tool name this app does not know (a newer app's) is kept in the
 * document and not listed; anything else that does not fit makes the whole profile unreadable (counted, not shown).
 */
export const storedAgentProfileSchema = z.object({
  id: scalar(z.string().regex(AGENT_ID_PATTERN)),
  name: scalar(agentNameSchema),
  color: scalar(agentColorSchema),
  instructions: scalar(agentInstructionsSchema),
  model: modelChoice(scalar(modelNameSchema) as z.ZodType<string>),
  tools: z.record(z.string(), z.literal(true)).transform((map) => AGENT_TOOL_NAMES.filter((name) => map[name] === true)),
  /** The Planner's record only: later default tools someone turned off (PLANNER_LATER_DEFAULT_TOOLS). */
  declinedTools: z.record(z.string(), z.literal(true)).optional(),
  createdAt: z.number().finite(),
  updatedAt: z.number().finite(),
});
export type StoredAgentProfile = z.infer<typeof storedAgentProfileSchema>;

/** The document as written: `tools` a map (name → true), so two people allowing different tools at once both count. */
export interface AgentProfileRecord {
  id: string;
  name: string;
  color: AgentColor;
  instructions: string;
  model: AgentModelChoice;
  tools: Record<string, true>;
  /** The Planner's record only: later default tools someone turned off (PLANNER_LATER_DEFAULT_TOOLS). */
  declinedTools?: Record<string, true>;
  createdAt: number;
  updatedAt: number;
}

export interface AgentProfilesDocument {
  schemaVersion: number;
  kind: "agent-profiles";
  profiles: Record<string, AgentProfileRecord>;
}

/** The Planner's profile before anyone changed it: every tool, the team default, no extra instructions. */
export function plannerDefaults(): Omit<AgentProfileRecord, "createdAt" | "updatedAt"> {
  return {
    id: PLANNER_AGENT_ID,
    name: PLANNER_AGENT_NAME,
    color: PLANNER_AGENT_COLOR,
    instructions: "",
    model: { kind: "team-default" },
    tools: Object.fromEntries(AGENT_TOOL_NAMES.map((name) => [name, true as const])),
  };
}

/** The tools the Planner's record allows: those it names, and each later default tool it does not decline. */
export function plannerTools(named: readonly AgentToolName[], declined: Record<string, true> | undefined): AgentToolName[] {
  return AGENT_TOOL_NAMES.filter((name) => named.includes(name) || (PLANNER_LATER_DEFAULT_TOOLS.includes(name) && declined?.[name] !== true));
}
