/**
 * The relay's table of agent chats over HTTP (issue #27): POST /v1/agent-chats registers a person's chat with an
 * agent (`{agentId, person, planId}`, shared/agent-chat-wire.ts), GET /v1/agent-chats lists the team's chats. The
 * table and its uniqueness are shared/node/agent-chat-table.ts (a database constraint on (team, agent, person) and on
 * (team, plan)); this file only reads the request, says who may, and maps refusals to statuses.
 *
 * What must stay true:
 *  - only a member (a token the relay admits, as for GET /v1/team) registers or lists;
 *  - a person key "github:<login>" is registered only by that GitHub-authenticated user ("gh:<login>");
 *  - a relay-token user (a handle, no GitHub identity) registers only "device:<id>" keys, and a device key belongs to
 *    the first user who registered a chat of it (as a plain peer id belongs to the first user who presents it:
 *    peer-bindings.ts), so no member can name a plan for another's device once it has chatted;
 *  - the same triple again is answered 200 as the row held; a taken pair with another plan (or a plan held by another
 *    pair) is 409 'idempotency-conflict', a full table 409 'too-large';
 *  - a relay token sent beside a GitHub chat's registration (RELAY_TOKEN_LINK_HEADER) is verified as a relay token
 *    only (no GitHub check, so it spends no budget) and its user linked to the registering login (token-links.ts)
 *    before the registration is recorded and answered, so the guard knows the link once the chat is guarded; a link
 *    refused (400 sent without a GitHub chat, 401 a token the relay does not know, 409 linked to another login or the
 *    table full) is said in the answer's `link`, and the registration is answered as it would be without the header;
 *  - a bad body is a typed 4xx (400 not JSON or not the shape, 413 past RELAY_MAX_AGENT_CHAT_BODY_BYTES, 415 not
 *    JSON's type) and never reaches the table; nothing here throws out of the handler.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { agentChatRegistrationSchema, RELAY_TOKEN_LINK_HEADER, type AgentChatLink } from "../shared/agent-chat-wire.js";
import { ChopinError } from "../shared/errors.js";
import type { AgentChatRecord, AgentChatTable } from "../shared/node/agent-chat-table.js";
import { GITHUB_IDENTITY_PREFIX, isGitHubIdentity } from "./authenticate.js";
import { bearerToken, sendJson, type HttpRouteContext } from "./http-routes.js";
import { RELAY_MAX_AGENT_CHAT_BODY_BYTES } from "./limits.js";
import type { AgentStarsOwners } from "./agent-stars-owners.js";
import type { RelayTokenLinks, TokenLink } from "./token-links.js";

export interface AgentChatRouteContext extends Pick<HttpRouteContext, "authenticate" | "allowQueryToken" | "onRefused"> {
  chats: AgentChatTable;
  /** People's stars registered in the team (agent-stars-routes.ts): a device key's registrant may be recorded there. */
  stars?: AgentStarsOwners;
  /** The team's name in the table: its index document's id. */
  team: string;
  /** Largest body read (RELAY_MAX_AGENT_CHAT_BODY_BYTES unless a test says otherwise). */
  maxBodyBytes?: number;
  /** Told the row the table holds after each answered registration (the relay guards its documents: chat-write-guard.ts). */
  onRegistered?: (chat: AgentChatRecord) => void;
  /** Relay tokens linked to GitHub logins (absent: a link header is ignored). */
  links?: {
    table: RelayTokenLinks;
    /** The relay-token user `token` stands for, or null (relay tokens only: never a GitHub check). */
    verify(token: string): string | null;
    /** Told each link the table holds after it was asked for (the guard lets the linked user write). */
    onLinked?: (link: TokenLink) => void;
  };
}

type Refusal = { status: number; code: string; message: string };

/** Who first registered anything of `person` in a team (a chat or their stars): a device key is theirs. */
export interface PersonRegistrants {
  registrantOf(team: string, person: string): string | null;
}

/** The registrant of `person` across the chats and the stars tables (the same rule holds in both). */
export function personRegistrants(ctx: Pick<AgentChatRouteContext, "chats" | "stars">): PersonRegistrants {
  return { registrantOf: (team, person) => ctx.chats.registrantOf(team, person) ?? ctx.stars?.registrantOf(team, person) ?? null };
}

/** Whether `user` may register a chat (or the stars) of `person`; null when it may, else the refusal. */
export function registrationRefusal(people: PersonRegistrants, team: string, user: string, person: string): Refusal | null {
  if (person.startsWith("github:")) {
    if (isGitHubIdentity(user) && user.slice(GITHUB_IDENTITY_PREFIX.length) === person.slice("github:".length)) return null;
    return { status: 403, code: "forbidden", message: `Only ${person.slice("github:".length)}, signed in with GitHub, registers their own chats and stars; nothing was registered.` };
  }
  if (isGitHubIdentity(user)) {
    return { status: 403, code: "forbidden", message: "A GitHub sign-in registers only its own github:<login> chats and stars; nothing was registered." };
  }
  const registrant = people.registrantOf(team, person);
  if (registrant !== null && registrant !== user) {
    return { status: 403, code: "forbidden", message: "That device's chats and stars were registered by another member; nothing was registered." };
  }
  return null;
}

/** Answers /v1/agent-chats (GET lists, POST registers); the caller routes only that path here. */
export function handleAgentChats(ctx: AgentChatRouteContext, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== "GET" && req.method !== "POST") {
    req.resume();
    sendJson(res, 405, { code: "invalid-input", message: "Only GET (list) or POST (register) is served here." }, { allow: "GET, POST" });
    return;
  }
  asMember(ctx, req, res, async (user) => {
    if (req.method === "GET") {
      req.resume();
      sendJson(res, 200, { chats: ctx.chats.list(ctx.team) });
      return;
    }
    const body = await readBody(req, ctx.maxBodyBytes ?? RELAY_MAX_AGENT_CHAT_BODY_BYTES);
    if (!body.ok) return sendJson(res, body.status, { code: body.code, message: body.message });
    const parsed = agentChatRegistrationSchema.safeParse(body.value);
    if (!parsed.success) {
      return sendJson(res, 400, { code: "invalid-input", message: `A registration is {agentId, person, planId}: ${parsed.error.issues.map((i) => i.message).join(" ")}` });
    }
    const refusal = registrationRefusal(personRegistrants(ctx), ctx.team, user, parsed.data.person);
    if (refusal) return sendJson(res, refusal.status, { code: refusal.code, message: refusal.message });
    answerRegistration(res, () => {
      // Linked before the chat is guarded, so the person's relay-token devices are never refused in between.
      const link = linkRelayToken(ctx, req.headers[RELAY_TOKEN_LINK_HEADER], user, parsed.data.person);
      const registered = ctx.chats.register(ctx.team, parsed.data, user);
      // Guarded before the answer: once a registration is answered, its documents are judged.
      ctx.onRegistered?.(registered.chat);
      return link === undefined ? registered : { ...registered, link };
    });
  });
}

/**
 * Answers 200 with what `register` returns, or its refusal as a status: 409 for 'idempotency-conflict' and
 * 'too-large', 403 for 'forbidden'; anything else is thrown (asMember answers it 500).
 */
export function answerRegistration(res: ServerResponse, register: () => object): void {
  try {
    sendJson(res, 200, register());
  } catch (error) {
    if (error instanceof ChopinError && (error.code === "idempotency-conflict" || error.code === "too-large" || error.code === "forbidden")) {
      sendJson(res, error.code === "forbidden" ? 403 : 409, { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) });
      return;
    }
    throw error;
  }
}

/**
 * Runs `then` as the member the request's bearer token authenticates (a token the relay admits, as for GET
 * /v1/team), or answers the refusal; a fault in `then` is answered 500, never thrown out of the handler.
 */
export function asMember(ctx: Pick<HttpRouteContext, "authenticate" | "allowQueryToken" | "onRefused">, req: IncomingMessage, res: ServerResponse, then: (user: string) => Promise<void>): void {
  const presented = bearerToken(req, ctx.allowQueryToken);
  if (!presented.ok) {
    req.resume();
    ctx.onRefused?.(req.socket.remoteAddress, 400, presented.message);
    sendJson(res, 400, { code: "invalid-input", message: presented.message });
    return;
  }
  void (async () => {
    const outcome = await ctx.authenticate(presented.token, req.socket.remoteAddress);
    if (!outcome.ok) {
      req.resume();
      ctx.onRefused?.(req.socket.remoteAddress, outcome.status, outcome.message);
      const extra: Record<string, string> = outcome.status === 401 ? { "www-authenticate": 'Bearer realm="chopin-relay"' } : outcome.retryAfterSeconds !== undefined ? { "retry-after": String(outcome.retryAfterSeconds) } : {};
      sendJson(res, outcome.status, { code: outcome.code, message: outcome.message }, extra);
      return;
    }
    await then(outcome.user);
  })().catch(() => {
    if (!res.headersSent) sendJson(res, 500, { code: "internal", message: "The relay could not answer this agent-chat request." });
  });
}

/**
 * Links the relay token sent beside a registration to the registering GitHub user (see the rule at the top);
 * undefined when none was sent. Throws only what the table cannot answer (a database fault).
 */
export function linkRelayToken(ctx: Pick<AgentChatRouteContext, "links">, header: string | string[] | undefined, user: string, person: string): AgentChatLink | undefined {
  if (header === undefined || !ctx.links) return undefined;
  const refused = (status: number, code: string, message: string): AgentChatLink => ({ linked: false, status, code, message });
  if (Array.isArray(header)) return refused(400, "invalid-input", "Send one relay token to link, not several; it was not linked.");
  if (!person.startsWith("github:") || !isGitHubIdentity(user)) {
    return refused(400, "invalid-input", "A relay token is linked only when a GitHub sign-in registers its own chat or stars; it was not linked.");
  }
  const tokenUser = ctx.links.verify(header.trim());
  if (tokenUser === null) return refused(401, "unauthorized", "The relay token sent to be linked is missing, wrong or revoked; it was not linked.");
  try {
    const { link } = ctx.links.table.link(tokenUser, user);
    ctx.links.onLinked?.(link);
    return { linked: true, user: tokenUser };
  } catch (error) {
    if (error instanceof ChopinError && (error.code === "idempotency-conflict" || error.code === "too-large")) return refused(409, error.code, error.message);
    throw error;
  }
}

type Body = { ok: true; value: unknown } | ({ ok: false } & Refusal);

/** The request's JSON body, read up to `max` bytes (past it: refused 413 and the rest left unread). */
export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) {
    req.resume();
    return Promise.resolve({ ok: false, status: 415, code: "invalid-input", message: "A registration is sent as application/json." });
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve({ ok: false, status: 413, code: "too-large", message: `A registration is at most ${max} bytes.` });
  }
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: Body) => {
      if (done) return;
      done = true;
      resolve(body);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        finish({ ok: false, status: 413, code: "too-large", message: `A registration is at most ${max} bytes.` });
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => {
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(parts).toString("utf8")) });
      } catch {
        finish({ ok: false, status: 400, code: "invalid-input", message: "The registration is not JSON." });
      }
    });
    req.on("error", () => finish({ ok: false, status: 400, code: "invalid-input", message: "The registration could not be read." }));
  });
}
