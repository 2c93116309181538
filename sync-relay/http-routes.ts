/**
 * The relay's small HTTP surface beside the WebSocket: GET /healthz for probes, GET /v1/admission (how members are
 * admitted, asked without a token: an app sends a GitHub sign-in only to a relay that says it takes one) and GET
 * /v1/team for members; /v1/agent-chats (agent-chat-routes.ts) for the team's table of agent chats and
 * /v1/agent-stars (agent-stars-routes.ts) for its people's stars. Bearer tokens are read and judged the same way here and at the WebSocket upgrade
 * (authenticate.ts), so a token that works for one works for the other, and a refusal carries the same status and
 * reason (401, 403 not admitted, 503 GitHub unavailable). A token in the address (?token=) is refused unless the
 * operator allowed it: addresses end up in the access logs of TLS proxies.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AGENT_CHATS_PATH, AGENT_STARS_PATH } from "../shared/agent-chat-wire.js";
import { handleAgentChats, type AgentChatRouteContext } from "./agent-chat-routes.js";
import { handleAgentStars, type AgentStarsRouteContext } from "./agent-stars-routes.js";

export interface HttpRouteContext {
  health(): { documents: number; connections: number };
  /** Who a token presented from `address` stands for, or why it is refused; never rejects. */
  authenticate(token: string | null, address: string | undefined): Promise<{ ok: true; user: string } | { ok: false; status: number; code: string; message: string; retryAfterSeconds?: number }>;
  teamIndexDocumentId: string;
  /** How this relay admits members: "relay-token", and "github" when GitHub admission is configured. */
  admissionMethods: readonly string[];
  /** Whether a token may come as ?token= (RelayOptions.allowQueryToken). */
  allowQueryToken: boolean;
  /** Told of every refused token (the relay logs them, rate-limited: refusal-log.ts). */
  onRefused?: (address: string | undefined, status: number, reason: string) => void;
  /**
   * The team's table of agent chats, served at /v1/agent-chats (agent-chat-routes.ts); with `stars`, its people's
   * stars registrations too, at /v1/agent-stars (agent-stars-routes.ts).
   */
  agentChats?: Omit<AgentChatRouteContext, "authenticate" | "allowQueryToken" | "onRefused"> & { onStarsRegistered?: AgentStarsRouteContext["onRegistered"] };
}

/** What a request presents: the bearer token (null: none), or why what it presented is refused. */
export type PresentedToken = { ok: true; token: string | null } | { ok: false; message: string };

export const QUERY_TOKEN_REFUSED =
  "A token in the address is refused here (addresses end up in proxies' logs): send it as an Authorization: Bearer header.";

/** Authorization: Bearer <token>; ?token= only when `allowQueryToken` (tools and browsers that cannot set headers). */
export function bearerToken(req: IncomingMessage, allowQueryToken = false): PresentedToken {
  const header = req.headers.authorization;
  if (typeof header === "string") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match) return { ok: true, token: match[1] };
  }
  let query: string | null;
  try {
    query = new URL(req.url ?? "/", "http://relay").searchParams.get("token");
  } catch {
    query = null;
  }
  if (query === null) return { ok: true, token: null };
  return allowQueryToken ? { ok: true, token: query } : { ok: false, message: QUERY_TOKEN_REFUSED };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...extraHeaders,
  });
  res.end(text);
}

export function handleHttp(ctx: HttpRouteContext, req: IncomingMessage, res: ServerResponse): void {
  let path: string;
  try {
    path = new URL(req.url ?? "/", "http://relay").pathname;
  } catch {
    sendJson(res, 400, { code: "invalid-input", message: "The request URL could not be read." });
    return;
  }
  if (path === AGENT_CHATS_PATH && ctx.agentChats) {
    handleAgentChats({ ...ctx.agentChats, authenticate: ctx.authenticate, allowQueryToken: ctx.allowQueryToken, onRefused: ctx.onRefused }, req, res);
    return;
  }
  if (path === AGENT_STARS_PATH && ctx.agentChats?.stars) {
    const { stars, onStarsRegistered, onRegistered: _chats, ...rest } = ctx.agentChats;
    handleAgentStars(
      { ...rest, stars, ...(onStarsRegistered ? { onRegistered: onStarsRegistered } : {}), authenticate: ctx.authenticate, allowQueryToken: ctx.allowQueryToken, onRefused: ctx.onRefused },
      req,
      res,
    );
    return;
  }
  // HEAD as GET without the body (Node's response leaves it out): health checkers use it.
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendJson(res, 405, { code: "invalid-input", message: "Only GET (or HEAD) is served here." }, { allow: "GET, HEAD" });
    return;
  }
  if (path === "/healthz") {
    sendJson(res, 200, { ok: true, ...ctx.health() });
    return;
  }
  if (path === "/v1/admission") {
    sendJson(res, 200, { methods: ctx.admissionMethods });
    return;
  }
  if (path === "/v1/team") {
    const presented = bearerToken(req, ctx.allowQueryToken);
    if (!presented.ok) {
      ctx.onRefused?.(req.socket.remoteAddress, 400, presented.message);
      sendJson(res, 400, { code: "invalid-input", message: presented.message });
      return;
    }
    void ctx.authenticate(presented.token, req.socket.remoteAddress).then(
      (outcome) => {
        if (!outcome.ok) {
          ctx.onRefused?.(req.socket.remoteAddress, outcome.status, outcome.message);
          const extra: Record<string, string> =
            outcome.status === 401 ? { "www-authenticate": 'Bearer realm="chopin-relay"' } : outcome.retryAfterSeconds !== undefined ? { "retry-after": String(outcome.retryAfterSeconds) } : {};
          sendJson(res, outcome.status, { code: outcome.code, message: outcome.message }, extra);
          return;
        }
        sendJson(res, 200, { user: outcome.user, teamIndexDocumentId: ctx.teamIndexDocumentId });
      },
      () => sendJson(res, 500, { code: "internal", message: "The relay could not check the token." }),
    );
    return;
  }
  sendJson(res, 404, { code: "not-found", message: `Nothing is served at ${path}.` });
}
