/**
 * The name an MCP client gives in initialize (clientInfo.name) is shown in provenance and version history, so it is
 * cleaned rather than refused (refusing initialize would lock an agent out over its own name): control and
 * bidirectional-override characters go (they could hide or reorder what a person reads), runs of whitespace become
 * one space, half a surrogate pair becomes U+FFFD, and the result is cut to the bound without splitting a character.
 */
import { DIRECTION_CONTROL_RANGE } from "../documents/bounds.js";

const HIDDEN = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u200e\\u200f${DIRECTION_CONTROL_RANGE}]`, "g");

/** The cleaned name, or null when nothing printable is left. */
export function clientNameOf(raw: unknown, maxChars: number): string | null {
  if (typeof raw !== "string") return null;
  const cleaned = raw.replace(/\p{Surrogate}/gu, "\uFFFD").replace(HIDDEN, " ").replace(/\s+/g, " ").trim();
  if (!cleaned) return null;
  if (cleaned.length <= maxChars) return cleaned;
  // Not inside a surrogate pair: a cut there would leave half a character.
  const end = /[\uD800-\uDBFF]/.test(cleaned[maxChars - 1]) ? maxChars - 1 : maxChars;
  return cleaned.slice(0, end).trimEnd();
}
