/**
 * Where a person's chat with an agent lives and how it begins (issue #27), computed rather than stored, as a plan's
 * conversation (conversation-identity.ts) and the agent profiles (main/agents/agent-profiles-identity.ts) are: a chat
 * is a plan (the chat's own plan, where the agent drafts) and that plan's ordinary conversation, and the plan's id is
 * derived from (the profiles' scope, the agent, the person). Its first change is the same bytes on every device (a
 * fixed actor, time 0), marked as that chat's plan. So two first sends (two windows, two devices of one person) begin
 * the same document and their messages merge into one conversation, and nothing has to be stored or announced to
 * find a chat: opening one never used reads nothing and makes nothing.
 *
 * What must stay true: the derivation and the genesis never change for schema version 1 (a change would split every
 * chat from the document its devices already share); any input that differs gives another id; the scope's kind is
 * part of the derivation, so a device's chat never has a team's id.
 */
import { createHash } from "node:crypto";
import { next as A } from "@automerge/automerge";
import { interpretAsDocumentId, type DocumentId } from "@automerge/automerge-repo";
import { PLAN_DOCUMENT_SCHEMA_VERSION, type PlanDocument } from "../schema/plan-document.js";

/** Whose profiles the agent is in: this device's (no relay), or the team's of a relay, named by its team index. */
export type AgentChatScope = { kind: "device"; deviceId: string } | { kind: "team"; teamIndexId: string };

export interface AgentChatKey {
  scope: AgentChatScope;
  agentId: string;
  /** The chat's person: "github:<login>" when signed in, else "device:<device id>" (conversation authorKey). */
  person: string;
}

/** The title every chat plan begins with: fixed, since the genesis must not depend on the agent's (changeable) name. */
export const AGENT_CHAT_PLAN_TITLE = "Agent chat";

const ID_DOMAIN = "chopin/agent-chat-id/v1\n";
const GENESIS_ACTOR_DOMAIN = "chopin/agent-chat-genesis/v1\n";

function digest(domain: string, key: AgentChatKey): Buffer {
  const scopeName = key.scope.kind === "device" ? key.scope.deviceId : key.scope.teamIndexId;
  // Each part is one line: none may hold a newline, so no two different keys hash the same text.
  for (const part of [scopeName, key.agentId, key.person]) if (/[\n\r]/.test(part)) throw new TypeError("an agent chat's key is one line per part");
  return createHash("sha256").update(domain).update(`${key.scope.kind}\n${scopeName}\n${key.agentId}\n${key.person}\n`).digest();
}

/** The chat plan's document id: 16 bytes of a domain-separated hash of scope, agent and person. */
export function agentChatIdOf(key: AgentChatKey): DocumentId {
  return interpretAsDocumentId(new Uint8Array(digest(ID_DOMAIN, key).subarray(0, 16)) as never);
}

/**
 * The chat plan's first change, identical everywhere: a fixed actor derived from the key, time 0, an empty plan marked
 * as this chat's (`agentChat`). Imported under agentChatIdOf(key) wherever the chat does not exist yet.
 */
export function agentChatGenesis(key: AgentChatKey): Uint8Array {
  const actor = digest(GENESIS_ACTOR_DOMAIN, key).subarray(0, 16).toString("hex");
  const doc = A.change(A.init<PlanDocument>({ actor }), { time: 0 }, (d) => {
    d.schemaVersion = PLAN_DOCUMENT_SCHEMA_VERSION;
    d.kind = "plan";
    d.title = AGENT_CHAT_PLAN_TITLE;
    d.text = "";
    d.repository = null;
    d.createdVia = "app";
    d.provenance = null;
    d.brief = null;
    d.archivedAt = null;
    d.createdAt = 0;
    d.updatedAt = 0;
    d.authors = {};
    d.agentChat = { agentId: key.agentId, person: key.person };
  });
  return A.save(doc);
}
