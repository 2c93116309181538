/**
 * A workspace index lists documents so a sidebar never has to load every document. Two live on a device: the local
 * index (private documents; never leaves the device) and the team index (shared documents; synced through the relay).
 * Entries cache the title and timestamps; the plan document stays the authority for them.
 */
import { z } from "zod";
import { MAX_TITLE_CHARS } from "../limits.js";
import { createdViaSchema } from "./plan-document.js";

export const WORKSPACE_INDEX_SCHEMA_VERSION = 1;

export const indexEntrySchema = z.object({
  title: z.string().max(MAX_TITLE_CHARS),
  createdVia: createdViaSchema,
  archivedAt: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
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
