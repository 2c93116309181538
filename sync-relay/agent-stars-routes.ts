/**
 * POST /v1/agent-stars (issue #27): a person's app registers its stars document in the team (`{person}`,
 * shared/agent-chat-wire.ts), so the relay's guard drops every other user's changes to it (chat-write-guard.ts), as it
 * does for the person's chats. The relay derives the document's id from the team and the person itself: a caller
 * names a person, never a document, so nobody can claim another document as their stars.
 *
 * What must stay true:
 *  - who may register a person is the chats' rule (agent-chat-routes.ts registrationRefusal): "github:<login>" only by
 *    that GitHub sign-in, "device:<id>" only by a relay-token user and only the one who first registered anything of
 *    that device (a chat or its stars);
 *  - the same registration again is answered 200 as held; another registrant 403, a full table 409 'too-large';
 *  - a relay token sent beside a GitHub person's registration is linked as with a chat's (linkRelayToken), before the
 *    stars are guarded, so the person's relay-token devices keep writing them;
 *  - a bad body is a typed 4xx and never reaches the table; nothing here throws out of the handler.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { agentStarsRegistrationSchema, RELAY_TOKEN_LINK_HEADER } from "../shared/agent-chat-wire.js";
import { answerRegistration, asMember, linkRelayToken, personRegistrants, readBody, registrationRefusal, type AgentChatRouteContext } from "./agent-chat-routes.js";
import type { AgentStarsOwner, AgentStarsOwners } from "./agent-stars-owners.js";
import { sendJson } from "./http-routes.js";
import { RELAY_MAX_AGENT_CHAT_BODY_BYTES } from "./limits.js";

export interface AgentStarsRouteContext extends Omit<AgentChatRouteContext, "stars" | "onRegistered"> {
  stars: AgentStarsOwners;
  /** Told the registration the table holds after each answered one (the guard judges the stars from then on). */
  onRegistered?: (stars: AgentStarsOwner) => void;
}

/** Answers /v1/agent-stars (POST registers); the caller routes only that path here. */
export function handleAgentStars(ctx: AgentStarsRouteContext, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== "POST") {
    req.resume();
    sendJson(res, 405, { code: "invalid-input", message: "Only POST (register) is served here." }, { allow: "POST" });
    return;
  }
  asMember(ctx, req, res, async (user) => {
    const body = await readBody(req, ctx.maxBodyBytes ?? RELAY_MAX_AGENT_CHAT_BODY_BYTES);
    if (!body.ok) return sendJson(res, body.status, { code: body.code, message: body.message });
    const parsed = agentStarsRegistrationSchema.safeParse(body.value);
    if (!parsed.success) {
      return sendJson(res, 400, { code: "invalid-input", message: `A stars registration is {person}: ${parsed.error.issues.map((i) => i.message).join(" ")}` });
    }
    const { person } = parsed.data;
    const refusal = registrationRefusal(personRegistrants(ctx), ctx.team, user, person);
    if (refusal) return sendJson(res, refusal.status, { code: refusal.code, message: refusal.message });
    answerRegistration(res, () => {
      const link = linkRelayToken(ctx, req.headers[RELAY_TOKEN_LINK_HEADER], user, person);
      const registered = ctx.stars.register(ctx.team, person, user);
      ctx.onRegistered?.(registered.stars);
      return link === undefined ? registered : { ...registered, link };
    });
  });
}
