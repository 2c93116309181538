/**
 * Test support (imported only by *.test.ts): an AgentProfiles over its own Repo and in-memory storage, agent chat on
 * unless told otherwise, recording every list it said; and a way to merge two replicas of one profiles document, as
 * the relay would bring them together.
 */
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import type { AgentList } from "../../shared/api.js";
import type { AgentProfilesDocument } from "../../shared/schema/agent-profiles.js";
import { MemoryStorage } from "../documents/test-fixture.js";
import { agentProfilesIdOf, type AgentProfilesScope } from "./agent-profiles-identity.js";
import { AgentProfiles } from "./agent-profiles.js";

export interface ProfilesReplica {
  profiles: AgentProfiles;
  repo: Repo;
  storage: MemoryStorage;
  said: AgentList[];
  chat: { on: boolean };
  clock: { now: number };
  handle(scope: AgentProfilesScope): DocHandle<AgentProfilesDocument>;
}

export function profilesReplica(deviceId = "device-a", storage = new MemoryStorage()): ProfilesReplica {
  const repo = new Repo({ storage, network: [] });
  const said: AgentList[] = [];
  const chat = { on: true };
  const clock = { now: 1_000 };
  let ids = 0;
  const profiles = new AgentProfiles({
    repo,
    holds: (id) => [...storage.data.keys()].some((key) => key.startsWith(`${id}/`)),
    deviceId,
    chatOn: () => chat.on,
    changed: (list) => void said.push(list),
    now: () => ++clock.now,
    newId: () => `${deviceId.replace(/[^a-z0-9]/g, "")}${(++ids).toString(16).padStart(8, "0")}`,
  });
  return { profiles, repo, storage, said, chat, clock, handle: (scope) => repo.handles[agentProfilesIdOf(scope)] as DocHandle<AgentProfilesDocument> };
}

/** Brings two replicas of a scope's document together both ways, as syncing through the relay would. */
export function mergeReplicas(a: ProfilesReplica, b: ProfilesReplica, scope: AgentProfilesScope): void {
  const left = a.handle(scope);
  const right = b.handle(scope);
  left.merge(right);
  right.merge(left);
}
