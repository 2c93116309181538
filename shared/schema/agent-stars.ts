/**
 * A person's stars on agents (issue #27): one Automerge document per (profiles scope, person), holding a map from agent
 * id to `true` (main/agents/agent-stars.ts). The map is in the document's first change, identical on every device of
 * the person, so two devices starring at once write into one map and both stars stay (a map each made on first use
 * would have been one of the two, the other device's stars lost).
 *
 * Everything read here is checked: another device (a newer app, a damaged write) may have written anything. A key that
 * is not an agent id, or whose value is not `true`, is not a star.
 *
 * What must stay true: a star is a key set to `true` and an unstar deletes the key, so a star and an unstar made at once
 * on two devices end as a star on both (Automerge keeps a concurrent write over a delete that did not see it); the
 * document's id is derived from the person, so a teammate's stars are another document, never read as this person's.
 */
import { AGENT_ID_PATTERN } from "./agent-profiles.js";

export const AGENT_STARS_SCHEMA_VERSION = 1;

export interface AgentStarsDocument {
  schemaVersion: number;
  kind: "agent-stars";
  /** The person key: "github:<login>", else "device:<device id>" (as conversation entries key their authors). */
  person: string;
  stars: Record<string, true>;
}

export interface ReadStars {
  /** Agent ids starred (readable keys only). */
  ids: Set<string>;
  /** Every key in the map, readable or not: the bound on the document's size goes by these. */
  keys: number;
}

export function readStars(doc: unknown): ReadStars {
  const raw = (doc as { stars?: unknown } | undefined)?.stars;
  const entries = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? Object.entries(raw as Record<string, unknown>) : [];
  const ids = new Set(entries.filter(([key, value]) => value === true && AGENT_ID_PATTERN.test(key)).map(([key]) => key));
  return { ids, keys: entries.length };
}
