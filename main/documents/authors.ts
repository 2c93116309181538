/**
 * Every change the service makes records the local actor's display name in the document's `authors` map, so the
 * version history can name who did what. Writing only when the name differs keeps changes free of churn.
 *
 * A coding agent's writes (over MCP) run on this device's actor too, so they are named per change instead: the
 * change's message says which agent made it, and the history credits the agent, not the person.
 */
import * as A from "@automerge/automerge";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";

export const UNKNOWN_AUTHOR = "Unknown author";

/** Call inside a change: names the actor making it. */
export function stampAuthor(doc: PlanDocument, displayName: string): void {
  const name = displayName.trim().slice(0, MAX_DISPLAY_NAME_CHARS) || UNKNOWN_AUTHOR;
  const actor = A.getActorId(doc);
  if (!doc.authors) doc.authors = {};
  if (doc.authors[actor] !== name) doc.authors[actor] = name;
}

/** Who asked for a write that is not the person at this device: a coding agent, by the name its client gave. */
export interface AgentAuthor {
  agent: string;
}

const AGENT_MESSAGE_PREFIX = "agent: ";

/** The change message that names the agent making the change. */
export function agentChangeMessage(by: AgentAuthor): string {
  return AGENT_MESSAGE_PREFIX + (by.agent.trim().slice(0, MAX_DISPLAY_NAME_CHARS) || "unknown");
}

/** The agent a change's message names, or null for a person's change. */
export function agentOfMessage(message: string | null | undefined): string | null {
  if (!message?.startsWith(AGENT_MESSAGE_PREFIX)) return null;
  return message.slice(AGENT_MESSAGE_PREFIX.length).slice(0, MAX_DISPLAY_NAME_CHARS) || null;
}

/** How the history lists an agent. */
export function agentLabel(agent: string): string {
  return `${agent} (agent)`;
}
