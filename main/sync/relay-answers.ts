/**
 * The two failures every HTTP call to the relay shares, typed the same way wherever they happen: the relay not
 * reached (its address as the person typed it, and why in words), and an answer that is not the JSON asked for.
 * What must stay true: both are 'relay-unavailable' (worth trying again later), and neither holds a token.
 */
import type { z } from "zod";
import { ChopinError } from "../../shared/errors.js";
import { plainConnectError, UNEXPLAINED_CONNECT_ERROR } from "./relay-errors.js";

/** The relay at `url` could not be reached: refused, not found and silent say different things. */
export function relayUnreachable(url: string, error: unknown): ChopinError {
  const why = plainConnectError(error);
  // Unexplained, the fallback sentence would only say the same twice ("Cannot reach the relay at …: Cannot reach…").
  const message = why === UNEXPLAINED_CONNECT_ERROR ? `Cannot reach the relay at ${url}.` : `Cannot reach the relay at ${url}: ${why}`;
  return new ChopinError("relay-unavailable", message, { cause: error instanceof Error ? error.message : String(error) });
}

/** A successful answer's body read as `schema`; `what` names the answer in the sentence when its shape is wrong. */
export function parseRelayJson<T>(text: string, schema: z.ZodType<T>, what: string): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChopinError("relay-unavailable", "The relay's answer was not JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ChopinError("relay-unavailable", `The relay's ${what} answer has an unexpected shape.`);
  return parsed.data;
}
