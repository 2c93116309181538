/**
 * A workspace index lists documents so a sidebar never has to load every document. Two live on a device: the local
 * index (private documents; never leaves the device) and the team index (shared documents; synced through the relay).
 * Entries cache the title and timestamps; the plan document stays the authority for them.
 */
import { next as A } from "@automerge/automerge";
import { z } from "zod";
import { MAX_TITLE_CHARS } from "../limits.js";
import { agentChatMarkSchema, createdViaSchema } from "./plan-document.js";

export const WORKSPACE_INDEX_SCHEMA_VERSION = 1;

/**
 * An entry's title is stored as a plain scalar string (Automerge RawString), read here as a string. Written as
 * collaborative text, two devices rewriting an entry's title at once (each core refreshes the entry from the plan
 * after a concurrent rename) made Automerge 2.2.9 materialize "Title by BobTitle by Bob" in memory while its stored
 * state held one title; a scalar's concurrent writes simply resolve to one of them. Older entries hold text titles,
 * which read as strings already.
 */
const storedTitle = z.preprocess((value) => (value instanceof A.RawString ? value.toString() : value), z.string().max(MAX_TITLE_CHARS));

export const indexEntrySchema = z.object({
  title: storedTitle,
  createdVia: createdViaSchema,
  archivedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /**
   * An agent chat's own plan (issue #27), copied from the plan's mark: lists leave it out, so it is never shown among
   * plans, searched or listed over MCP. Optional: an older app reads such an entry as an ordinary plan's.
   */
  agentChat: agentChatMarkSchema.optional(),
});
export type IndexEntry = z.infer<typeof indexEntrySchema>;

export const workspaceIndexSchema = z.object({
  schemaVersion: z.literal(WORKSPACE_INDEX_SCHEMA_VERSION),
  kind: z.literal("workspace-index"),
  scope: z.enum(["local", "team"]),
  /** Keyed by Automerge document id. */
  documents: z.record(z.string(), indexEntrySchema),
});
export type WorkspaceIndex = z.infer<typeof workspaceIndexSchema>;
