/**
 * The relay's agent-chat endpoints on the wire (issue #27), one schema for the relay that checks and the app that asks:
 * POST /v1/agent-chats registers `{agentId, person, planId}` and answers `{chat, created}`; GET /v1/agent-chats lists
 * the team's chats as `{chats}`. The table behind them is shared/node/agent-chat-table.ts. POST /v1/agent-stars
 * registers `{person}`, whose stars document in the team is then theirs at the relay (sync-relay/agent-stars-owners.ts),
 * and answers `{stars, created}`.
 *
 * What must stay true: every field is bounded (an agent id as profiles make them, a person key of one of the two
 * forms and at most MAX_AGENT_CHAT_PERSON_CHARS, a valid document id), and unknown fields are refused, so what the
 * relay stores is exactly what a chat plan's mark can say.
 */
import { isValidDocumentId } from "@automerge/automerge-repo";
import { z } from "zod";
import { MAX_AGENT_CHAT_PERSON_CHARS } from "./limits.js";
import { AGENT_ID_PATTERN } from "./schema/agent-profiles.js";

export const AGENT_CHATS_PATH = "/v1/agent-chats";
export const AGENT_STARS_PATH = "/v1/agent-stars";
/**
 * A GitHub chat's registration may also carry the app's relay token in this header (never in the body, never
 * logged): the relay then records that the token's user speaks for the GitHub login (sync-relay/token-links.ts).
 */
export const RELAY_TOKEN_LINK_HEADER = "x-chopin-relay-token";

/** "github:<login>" (lower case, as conversation-identity.ts's authorKey) or "device:<device id>": one line, no spaces. */
export const AGENT_CHAT_PERSON_PATTERN = /^(github|device):[^\s:]+$/;

const personSchema = z
  .string()
  .max(MAX_AGENT_CHAT_PERSON_CHARS, `person is longer than ${MAX_AGENT_CHAT_PERSON_CHARS} characters.`)
  .regex(AGENT_CHAT_PERSON_PATTERN, 'person is neither "github:<login>" nor "device:<id>".');

export const agentChatRegistrationSchema = z
  .object({
    agentId: z.string().regex(AGENT_ID_PATTERN, "agentId is not an agent id."),
    person: personSchema,
    planId: z.string().refine((id) => isValidDocumentId(id), "planId is not a document id."),
  })
  .strict();

export type AgentChatRegistration = z.infer<typeof agentChatRegistrationSchema>;

const recordSchema = z.object({
  agentId: z.string(),
  person: z.string(),
  planId: z.string(),
  registeredBy: z.string(),
  registeredAt: z.number(),
});

export type AgentChatWireRecord = z.infer<typeof recordSchema>;

/**
 * What became of a relay token sent with a registration: linked (the token's user now speaks for the login), or the
 * link refused with a status and a sentence (401 a token the relay does not know, 400 a token sent with no GitHub
 * chat, 409 'idempotency-conflict' already linked to another login or 'too-large'); the registration stands either way.
 */
export const agentChatLinkSchema = z.union([
  z.object({ linked: z.literal(true), user: z.string() }),
  z.object({ linked: z.literal(false), status: z.number(), code: z.string(), message: z.string() }),
]);
export type AgentChatLink = z.infer<typeof agentChatLinkSchema>;

export const agentChatRegisteredSchema = z.object({ chat: recordSchema, created: z.boolean(), link: agentChatLinkSchema.optional() });
export const agentChatListSchema = z.object({ chats: z.array(recordSchema) });

/** A person's stars registered in the team: whose, and who may write them (as a chat's registeredBy). */
export const agentStarsRegistrationSchema = z.object({ person: personSchema }).strict();
export type AgentStarsRegistration = z.infer<typeof agentStarsRegistrationSchema>;

const starsRecordSchema = z.object({ person: z.string(), documentId: z.string(), registeredBy: z.string(), registeredAt: z.number() });
export type AgentStarsWireRecord = z.infer<typeof starsRecordSchema>;

export const agentStarsRegisteredSchema = z.object({ stars: starsRecordSchema, created: z.boolean(), link: agentChatLinkSchema.optional() });
