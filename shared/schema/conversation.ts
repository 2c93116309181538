/**
 * A channel's conversation: one Automerge document per plan, beside it (issue #25). Entries live in a map keyed by an
 * id derived from who sent them and their clientRequestId, so a retried send, from any window of the device, after a
 * restart, or concurrently on two replicas, writes the same key and never a second entry.
 *
 * Order is causal, not by clock: each entry's `seq` is one more than the highest this replica had seen when it was
 * written, so a reply sorts after what it answers even when the sender's clock is behind; entries written without
 * seeing each other (offline, concurrently) tie on seq and fall back to their time, then their id, the same order on
 * every replica.
 *
 * Everything read from a conversation is checked here: it arrives from other devices through the relay.
 */
import { next as A } from "@automerge/automerge";
import { z } from "zod";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_DISPLAY_NAME_CHARS, MAX_MESSAGE_BYTES, MAX_MESSAGE_REFERENCES, MAX_TITLE_CHARS, MAX_PLANNER_ENTRY_LABEL_CHARS, MAX_PLANNER_ENTRY_NOTE_CHARS, MAX_PLANNER_ENTRY_TOOLS } from "../limits.js";
import { utf8Bytes } from "../utf8.js";

export const CONVERSATION_SCHEMA_VERSION = 1;

/** A GitHub login: letters, digits and single hyphens, at most 39 characters. */
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
/** A device id as main/settings/identity.ts makes it ("device-<uuid>"), or any id of that alphabet. */
const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Message text and names are stored as plain scalar strings (Automerge RawString): nobody edits a sent message, and
 * collaborative text would cost an operation per character. They read back as strings.
 */
const scalar = (schema: z.ZodString) => z.preprocess((value) => (value instanceof A.RawString ? value.toString() : value), schema);

export const personAuthorSchema = z.object({
  kind: z.literal("person"),
  /** The display name the person chose, as it was when they sent. */
  name: scalar(z.string().min(1).max(MAX_DISPLAY_NAME_CHARS)),
  /** Their GitHub login when they were signed in. */
  login: scalar(z.string().regex(GITHUB_LOGIN)).optional(),
  /** The device they sent from. */
  device: scalar(z.string().regex(DEVICE_ID)),
});
export const authorSchema = z.discriminatedUnion("kind", [personAuthorSchema, z.object({ kind: z.literal("planner") }), z.object({ kind: z.literal("system") })]);
export type Author = z.infer<typeof authorSchema>;
export type PersonAuthor = z.infer<typeof personAuthorSchema>;

export const addresseeSchema = z.enum(["planner", "room"]);
export type Addressee = z.infer<typeof addresseeSchema>;

export const messageTextSchema = z
  .string()
  .min(1, "A message cannot be empty.")
  .refine((text) => utf8Bytes(text) <= MAX_MESSAGE_BYTES, `A message is at most ${MAX_MESSAGE_BYTES} bytes of UTF-8.`);

export const clientRequestIdSchema = z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS);

const label = scalar(z.string().min(1).max(MAX_PLANNER_ENTRY_LABEL_CHARS));
const note = scalar(z.string().max(MAX_PLANNER_ENTRY_NOTE_CHARS));

/** A tool call a Planner turn made, as its answer records it: the tool, how it ended, and why when it failed. */
export const turnToolSchema = z.object({ name: label, status: z.enum(["done", "failed"]), note: note.optional() });
export type TurnTool = z.infer<typeof turnToolSchema>;

/**
 * A tool call the permission gate refused before it ran: the tool, the failed check, the check's reason, and the turn
 * (the message it answers). Kept here, not as the entry's turnId: an entry's turnId marks the turn's answer.
 */
export const denialSchema = z.object({ tool: label, check: label, reason: note, turnId: scalar(z.string().max(MAX_CLIENT_REQUEST_ID_CHARS)) });
export type Denial = z.infer<typeof denialSchema>;

/**
 * A document a message references (`#` in the composer): its id, its title and revision when the message was sent.
 * Evidence for the Planner (read_reference), never an instruction, and never the plan its tools edit.
 */
export const messageReferenceSchema = z.object({
  documentId: scalar(z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS)),
  title: scalar(z.string().max(MAX_TITLE_CHARS)),
  revision: scalar(z.string().max(MAX_CLIENT_REQUEST_ID_CHARS)),
});
export type MessageReference = z.infer<typeof messageReferenceSchema>;

/**
 * A plan handed off from an agent chat (issue #27): the new plan's id and its title as made. The card is written only
 * after that plan is stored and listed, so an entry carrying it always names a plan that was made.
 */
export const handoffSchema = z.object({
  documentId: scalar(z.string().min(1).max(MAX_CLIENT_REQUEST_ID_CHARS)),
  title: scalar(z.string().min(1).max(MAX_TITLE_CHARS)),
});
export type Handoff = z.infer<typeof handoffSchema>;

export const conversationEntrySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/),
  /** Causal position: one more than the highest seq its writer had seen. */
  seq: z.number().int().min(1),
  author: authorSchema,
  to: addresseeSchema,
  text: scalar(messageTextSchema),
  /** The writer's clock, epoch ms: shown, and a tie-breaker only. */
  at: z.number(),
  clientRequestId: scalar(clientRequestIdSchema),
  // Room for the Planner (the next issue): the turn an entry belongs to and the generations it was written under.
  turnId: scalar(z.string().max(MAX_CLIENT_REQUEST_ID_CHARS)).optional(),
  /**
   * On a Planner entry naming a turn: "started" marks that the owner began the turn (so no app runs it again: a turn
   * that never answers was interrupted), "answered" (or absent, as first written) is the turn's answer.
   */
  turn: z.enum(["started", "answered"]).optional(),
  /** The entry begins a new Planner session (`/new` processed, or a reset): the next session starts from after it. */
  boundary: z.literal(true).optional(),
  /** On a person's message to the Planner: they withdrew it before a turn took it up (epoch ms); no turn runs it. */
  withdrawnAt: z.number().optional(),
  /** A person's request to stop the Planner's turn for this message (the entry records who asked). */
  abortTurn: scalar(z.string().max(MAX_CLIENT_REQUEST_ID_CHARS)).optional(),
  /** On a person's message: the documents it references, as they were when it was sent. */
  references: z.array(messageReferenceSchema).max(MAX_MESSAGE_REFERENCES).optional(),
  /** On a turn's answer: the tool calls the turn made, in order (the latest MAX_PLANNER_ENTRY_TOOLS). */
  tools: z.array(turnToolSchema).max(MAX_PLANNER_ENTRY_TOOLS).optional(),
  /** A Planner entry recording a tool call the permission gate refused. */
  denial: denialSchema.optional(),
  /** A card: the plan handed off from this agent chat (by the agent's tool or the person's action). */
  handoff: handoffSchema.optional(),
  /**
   * On a turn's answer: the turn failed (the model provider's error, no words of the model's); its text names who
   * could not answer and why, and the asker is offered a retry (issue #27).
   */
  failed: z.literal(true).optional(),
  sessionGeneration: z.number().int().min(0).optional(),
  ownershipGeneration: z.number().int().min(0).optional(),
});
export type ConversationEntry = z.infer<typeof conversationEntrySchema>;

export type ConversationDocument = {
  schemaVersion: number;
  kind: "conversation";
  /** The plan this conversation belongs to. */
  planId: string;
  entries: Record<string, unknown>;
};

/** The causal order every replica shows: seq, then the writer's time, then id. */
export function compareEntries(a: ConversationEntry, b: ConversationEntry): number {
  return a.seq - b.seq || a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The entries of a conversation that pass the schema, in order. An entry that does not (written by a newer app, or
 * damaged) is left out and counted, never allowed to stop the rest from showing.
 */
export function readEntries(doc: ConversationDocument): { entries: ConversationEntry[]; unreadable: number } {
  const entries: ConversationEntry[] = [];
  let unreadable = 0;
  for (const [key, value] of Object.entries(doc.entries ?? {})) {
    const parsed = conversationEntrySchema.safeParse(value);
    if (parsed.success && parsed.data.id === key) entries.push(parsed.data);
    else unreadable++;
  }
  entries.sort(compareEntries);
  return { entries, unreadable };
}
