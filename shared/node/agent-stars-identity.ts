/**
 * Where a person's stars live and how their document begins (issue #27), computed rather than stored, as the profiles'
 * (agent-profiles-identity.ts) and a chat's plan (shared/node/agent-chat-identity.ts): at an id derived from (the
 * profiles' scope, the person), begun from the same bytes on every device (a fixed actor, time 0) holding an empty map
 * of stars. So the person's devices in a team open one document without asking anyone, and two of them starring at
 * once (offline, or before either saw the other) write into the same map.
 *
 * Why a document of the person's own rather than a map inside the team's profiles document: that document's first
 * change (fixed for schema version 1) has no place for stars, so a person's map would be made on first use, and two
 * devices making it at once keep only one of the two maps (the other device's stars lost); and a teammate's stars are
 * then never in a document read as mine.
 *
 * In shared/node because the relay derives a team member's stars id too, to guard it as it guards their chats
 * (sync-relay/chat-write-guard.ts).
 *
 * What must stay true: the derivations and the genesis never change for schema version 1; every part of the key is one
 * line; the scope's kind is part of the derivation, so a device's stars never have a team's id.
 */
import { createHash } from "node:crypto";
import { next as A } from "@automerge/automerge";
import { interpretAsDocumentId, type DocumentId } from "@automerge/automerge-repo";
import { AGENT_STARS_SCHEMA_VERSION, type AgentStarsDocument } from "../schema/agent-stars.js";

/** The agent profiles' scope the stars are of (main/agents/agent-profiles-identity.ts names it so too). */
export type StarsScope = { kind: "device"; deviceId: string } | { kind: "team"; teamIndexId: string };

/** Whose stars: a person in a scope. */
export interface StarsOwner {
  scope: StarsScope;
  /** "github:<login>", else "device:<device id>". */
  person: string;
}

const ID_DOMAIN = "chopin/agent-stars-id/v1\n";
const GENESIS_ACTOR_DOMAIN = "chopin/agent-stars-genesis/v1\n";

function digest(domain: string, owner: StarsOwner): Buffer {
  const name = owner.scope.kind === "device" ? owner.scope.deviceId : owner.scope.teamIndexId;
  for (const part of [name, owner.person]) if (/[\n\r]/.test(part)) throw new TypeError("a stars document's key is one line per part");
  return createHash("sha256").update(domain).update(`${owner.scope.kind}\n${name}\n${owner.person}\n`).digest();
}

/** The stars document's id: 16 bytes of a domain-separated hash of the scope and the person. */
export function agentStarsIdOf(owner: StarsOwner): DocumentId {
  return interpretAsDocumentId(new Uint8Array(digest(ID_DOMAIN, owner).subarray(0, 16)) as never);
}

/** The document's first change, identical on every device of the person: a fixed actor, time 0, no stars. */
export function agentStarsGenesis(owner: StarsOwner): Uint8Array {
  const actor = digest(GENESIS_ACTOR_DOMAIN, owner).subarray(0, 16).toString("hex");
  const doc = A.change(A.init<AgentStarsDocument>({ actor }), { time: 0 }, (d) => {
    d.schemaVersion = AGENT_STARS_SCHEMA_VERSION;
    d.kind = "agent-stars";
    d.person = new A.RawString(owner.person) as unknown as string;
    d.stars = {};
  });
  return A.save(doc);
}
