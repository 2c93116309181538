/**
 * GET /v1/team on the relay: who the token belongs to and the team's workspace-index document; GET /v1/admission:
 * how it admits members (asked with no token). The relay's HTTP base is its WebSocket address with ws->http and
 * wss->https. Failures are typed: 'unauthorized' for a refused token,
 * 'relay-unavailable' for anything on the way, never a raw fetch error.
 */
import { z } from "zod";
import { ChopinError } from "../../shared/errors.js";
import { RELAY_HTTP_TIMEOUT_MS } from "../util/limits.js";
import { parseRelayJson, relayUnreachable } from "./relay-answers.js";
import { refusalText } from "./relay-errors.js";

export interface TeamInfo {
  user: string;
  teamIndexDocumentId: string;
}

const teamInfoSchema = z.object({ user: z.string().min(1), teamIndexDocumentId: z.string().min(1) });

/** ws://h:p/path -> http://h:p ; wss:// -> https:// ; http(s) passes through. */
export function relayHttpBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ChopinError("invalid-input", `"${url}" is not a relay address.`);
  }
  const protocol = { "ws:": "http:", "wss:": "https:", "http:": "http:", "https:": "https:" }[parsed.protocol];
  if (!protocol) throw new ChopinError("invalid-input", `"${url}" is not a ws://, wss://, http:// or https:// address.`);
  return `${protocol}//${parsed.host}`;
}

export async function fetchTeamInfo(url: string, token: string, timeoutMs = RELAY_HTTP_TIMEOUT_MS): Promise<TeamInfo> {
  return getRelayJson(url, "/v1/team", token, teamInfoSchema, "team", timeoutMs);
}

/** How the relay admits members (GET /v1/admission, asked without a token): whether it takes GitHub sign-ins. */
export interface RelayAdmission {
  github: boolean;
}

const admissionSchema = z.object({ methods: z.array(z.string()) });

export async function fetchAdmission(url: string, timeoutMs = RELAY_HTTP_TIMEOUT_MS): Promise<RelayAdmission> {
  const { methods } = await getRelayJson(url, "/v1/admission", null, admissionSchema, "admission", timeoutMs);
  return { github: methods.includes("github") };
}

/** GET `path` on the relay's HTTP base, with the bearer token when one is given; typed failures only. */
async function getRelayJson<T>(url: string, path: string, token: string | null, schema: z.ZodType<T>, what: string, timeoutMs: number): Promise<T> {
  const endpoint = `${relayHttpBase(url)}${path}`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw relayUnreachable(url, error);
  }
  const text = await response.text().catch(() => "");
  if (response.status === 401 || response.status === 403) {
    throw new ChopinError("unauthorized", "The relay refused the token: it is wrong or was revoked.", {
      status: response.status,
    });
  }
  if (!response.ok) {
    throw new ChopinError("relay-unavailable", refusalText(response.status, text), { status: response.status });
  }
  return parseRelayJson(text, schema, what);
}
