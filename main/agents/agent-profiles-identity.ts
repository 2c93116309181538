/**
 * Where a scope's agent profiles live and how their document begins, computed rather than stored (as a plan's
 * conversation: shared/node/conversation-identity.ts). A team's profiles are at an id derived from the team index's id
 * (which the relay names to every member), this device's at one derived from its device id; the first change is the
 * same bytes on every device, holding the Planner's profile. So every member of a team opens the same document without
 * asking anyone, two members who begin it offline begin the same document (same genesis hash: their profiles merge),
 * and the Planner's profile is one Automerge object everywhere, so edits of it from two devices merge field by field
 * instead of one device's whole profile replacing the other's.
 *
 * What must stay true: the derivations and the genesis never change for schema version 1 (a change would split every
 * team's profiles from the document its members already share); the device scope's id is never the team's.
 */
import { createHash } from "node:crypto";
import { next as A } from "@automerge/automerge";
import { interpretAsDocumentId, type DocumentId } from "@automerge/automerge-repo";
import { AGENT_PROFILES_SCHEMA_VERSION, PLANNER_GENESIS_TOOLS, plannerDefaults, type AgentProfilesDocument } from "../../shared/schema/agent-profiles.js";

/** Whose profiles: this device's (no relay configured), or the team's of a relay, named by its team index. */
export type AgentProfilesScope = { kind: "device"; deviceId: string } | { kind: "team"; teamIndexId: string };

const ID_DOMAIN = "chopin/agent-profiles-id/v1\n";
const GENESIS_ACTOR_DOMAIN = "chopin/agent-profiles-genesis/v1\n";

function digest(domain: string, scope: AgentProfilesScope): Buffer {
  const name = scope.kind === "device" ? scope.deviceId : scope.teamIndexId;
  return createHash("sha256").update(domain).update(`${scope.kind}\n${name}\n`).digest();
}

/** The profiles document's id for a scope: 16 bytes of a domain-separated hash of the scope's kind and name. */
export function agentProfilesIdOf(scope: AgentProfilesScope): DocumentId {
  return interpretAsDocumentId(new Uint8Array(digest(ID_DOMAIN, scope).subarray(0, 16)) as never);
}

/** The document's first change, identical everywhere: a fixed actor derived from the scope, time 0, the Planner's profile. */
export function agentProfilesGenesis(scope: AgentProfilesScope): Uint8Array {
  const actor = digest(GENESIS_ACTOR_DOMAIN, scope).subarray(0, 16).toString("hex");
  const planner = plannerDefaults();
  const doc = A.change(A.init<AgentProfilesDocument>({ actor }), { time: 0 }, (d) => {
    d.schemaVersion = AGENT_PROFILES_SCHEMA_VERSION;
    d.kind = "agent-profiles";
    d.profiles = {
      [planner.id]: {
        ...planner,
        name: new A.RawString(planner.name) as unknown as string,
        instructions: new A.RawString(planner.instructions) as unknown as string,
        // Frozen: tools added since are the Planner's by default without being written here (PLANNER_LATER_DEFAULT_TOOLS).
        tools: Object.fromEntries(PLANNER_GENESIS_TOOLS.map((name) => [name, true as const])),
        createdAt: 0,
        updatedAt: 0,
      },
    };
  });
  return A.save(doc);
}
