/**
 * What a change's message says about it, for the version history: which coding agent made it (an agent's writes run
 * on this device's actor, so the actor alone would credit the person), and whether it restored an earlier version (a
 * restore is a version of its own, so it can itself be undone by restoring the version before it).
 */
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";

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

const RESTORE_MESSAGE_PREFIX = "restore: ";

/** The change message of a restore of `versionId`. */
export function restoreChangeMessage(versionId: string): string {
  return RESTORE_MESSAGE_PREFIX + versionId;
}

export function isRestoreMessage(message: string | null | undefined): boolean {
  return message?.startsWith(RESTORE_MESSAGE_PREFIX) === true;
}
