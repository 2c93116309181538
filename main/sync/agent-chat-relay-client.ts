/**
 * The app core's side of the relay's table of agent chats (issue #27; sync-relay/agent-chat-routes.ts): registers this
 * person's chat and lists the team's. Which credential goes depends on whose chat it is, because the relay lets only
 * the GitHub user "<login>" register "github:<login>": such a chat is registered with the person's GitHub sign-in (only
 * to a relay that says it takes one, over wss:// or to this computer: github-credential-gate.ts), a "device:<id>"
 * chat with the relay token. A GitHub chat's registration also carries the relay token, when there is one, in
 * RELAY_TOKEN_LINK_HEADER: the app links to the relay with that token whenever it has one (relay-link.ts
 * relayCredential), so the relay must learn that the token's user speaks for the login, or its chat guard drops the
 * person's own writes (sync-relay/token-links.ts). Listing takes whichever credential the app connects with.
 *
 * What must stay true: failures are typed and sentences: 'relay-unavailable' for anything on the way (worth trying
 * again later); 'unauthorized' / 'forbidden' / 'idempotency-conflict' / 'too-large' / 'invalid-input' for the relay's
 * own refusals (not worth trying again with the same credential); a GitHub token never goes where the gate says no.
 */
import { z } from "zod";
import {
  AGENT_CHATS_PATH,
  AGENT_STARS_PATH,
  agentChatListSchema,
  agentChatRegisteredSchema,
  agentStarsRegisteredSchema,
  RELAY_TOKEN_LINK_HEADER,
  type AgentChatLink,
  type AgentChatRegistration,
  type AgentChatWireRecord,
  type AgentStarsWireRecord,
} from "../../shared/agent-chat-wire.js";
import { ChopinError, isErrorCode } from "../../shared/errors.js";
import { RELAY_HTTP_TIMEOUT_MS } from "../util/limits.js";
import { githubNotAdmitted, githubTransportRefusal } from "./github-credential-gate.js";
import { parseRelayJson, relayUnreachable } from "./relay-answers.js";
import { refusalText } from "./relay-errors.js";
import { fetchAdmission, relayHttpBase } from "./team-info.js";

/** What the core holds to talk to its relay now: its address and each credential it has (null: none). */
export interface RelayCredentials {
  url: string;
  relayToken: string | null;
  githubToken: string | null;
}

/** The codes a refusal by the relay itself carries; anything else is 'relay-unavailable'. */
const FINAL_CODES = new Set(["unauthorized", "forbidden", "idempotency-conflict", "too-large", "invalid-input"]);

/** Whether a failure of this client is worth trying again later (the relay was not reached, or could not answer). */
export function worthRetrying(error: unknown): boolean {
  return !(error instanceof ChopinError) || !FINAL_CODES.has(error.code);
}

/** The token that may register `person`'s chat at the relay, or the refusal saying why none may. */
export async function registrationToken(credentials: RelayCredentials, person: string): Promise<string> {
  if (person.startsWith("device:")) {
    if (credentials.relayToken) return credentials.relayToken;
    throw new ChopinError("unauthorized", "A chat of this device is registered with the relay token, and none is set: add it in Settings.");
  }
  if (!credentials.githubToken) throw new ChopinError("unauthorized", "A chat of a GitHub user is registered with their GitHub sign-in, and this app is not signed in.");
  const transport = githubTransportRefusal(credentials.url);
  if (transport) throw new ChopinError(transport.code, transport.message);
  if (!(await fetchAdmission(credentials.url)).github) {
    const refusal = githubNotAdmitted(credentials.url);
    throw new ChopinError(refusal.code, refusal.message);
  }
  return credentials.githubToken;
}

/** The token that lists the team's chats: the one the app connects with (the relay token wins, as relay-link.ts). */
export function listingToken(credentials: RelayCredentials): string {
  const token = credentials.relayToken ?? credentials.githubToken;
  if (!token) throw new ChopinError("unauthorized", "Chopin has nothing to sign in to the team relay with: add your relay token in Settings (or sign in with GitHub).");
  return token;
}

/** `link`: what became of the relay token sent beside a GitHub chat's registration (absent when none was sent). */
export async function registerAgentChatAtRelay(
  credentials: RelayCredentials,
  chat: AgentChatRegistration,
): Promise<{ chat: AgentChatWireRecord; created: boolean; link?: AgentChatLink }> {
  const token = await registrationToken(credentials, chat.person);
  // Only beside the GitHub sign-in, which registrationToken sent only where the gate allows (wss:// or this computer).
  const link: Record<string, string> = chat.person.startsWith("github:") && credentials.relayToken ? { [RELAY_TOKEN_LINK_HEADER]: credentials.relayToken } : {};
  return relayJson(credentials.url, token, { method: "POST", body: JSON.stringify(chat), headers: link }, agentChatRegisteredSchema);
}

export async function listAgentChatsAtRelay(credentials: RelayCredentials): Promise<AgentChatWireRecord[]> {
  return (await relayJson(credentials.url, listingToken(credentials), { method: "GET" }, agentChatListSchema)).chats;
}

/**
 * Registers `person`'s stars document in the team (the relay derives its id), with the credential and the link header
 * a chat of that person is registered with: from then on the relay drops everyone else's changes to it.
 */
export async function registerAgentStarsAtRelay(credentials: RelayCredentials, person: string): Promise<{ stars: AgentStarsWireRecord; created: boolean; link?: AgentChatLink }> {
  const token = await registrationToken(credentials, person);
  const link: Record<string, string> = person.startsWith("github:") && credentials.relayToken ? { [RELAY_TOKEN_LINK_HEADER]: credentials.relayToken } : {};
  return relayJson(credentials.url, token, { method: "POST", body: JSON.stringify({ person }), headers: link, path: AGENT_STARS_PATH }, agentStarsRegisteredSchema);
}

async function relayJson<T>(
  url: string,
  token: string,
  init: { method: "GET" | "POST"; body?: string; headers?: Record<string, string>; path?: string },
  schema: z.ZodType<T>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${relayHttpBase(url)}${init.path ?? AGENT_CHATS_PATH}`, {
      method: init.method,
      headers: { ...init.headers, authorization: `Bearer ${token}`, accept: "application/json", ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: AbortSignal.timeout(RELAY_HTTP_TIMEOUT_MS),
    });
  } catch (error) {
    throw relayUnreachable(url, error);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    let code: unknown;
    try {
      code = (JSON.parse(text) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    // A relay too old to know the table answers 404: nothing to register with, try again after it is updated.
    const typed = response.status >= 400 && response.status < 500 && response.status !== 404 && response.status !== 429 && typeof code === "string" && isErrorCode(code) && FINAL_CODES.has(code);
    throw new ChopinError(typed ? (code as "forbidden") : "relay-unavailable", refusalText(response.status, text), { status: response.status });
  }
  return parseRelayJson(text, schema, "agent-chat");
}
