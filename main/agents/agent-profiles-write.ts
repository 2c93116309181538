/**
 * The changes a profile write makes, inside one Automerge change of the profiles document. Each writes only the fields
 * it was given, so a teammate's concurrent change of another field of the same profile stays; names, instructions and
 * model names go in as scalar strings (one whole value per write), the model choice as one new object, and tools as
 * the difference to the allowed set (two people allowing different tools at once both count).
 *
 * What must stay true: a tool name this app does not know (a newer app's) is never removed by a write here; a removal
 * deletes the profile's key, so an edit of it made concurrently elsewhere does not bring it back.
 */
import { next as A } from "@automerge/automerge";
import type { AgentInput, AgentPatch } from "../../shared/api.js";
import { AGENT_TOOL_NAMES, PLANNER_AGENT_ID, PLANNER_LATER_DEFAULT_TOOLS, plannerDefaults, type AgentModelChoice, type AgentProfileRecord, type AgentProfilesDocument } from "../../shared/schema/agent-profiles.js";

const scalar = (text: string) => new A.RawString(text) as unknown as string;
const modelObject = (model: AgentModelChoice): AgentModelChoice => (model.kind === "provider" ? { kind: "provider", provider: model.provider, model: scalar(model.model) } : { kind: "team-default" });

/** A new profile under `id`, every field given (the caller filled in the defaults). */
export function putProfile(doc: AgentProfilesDocument, id: string, input: Required<AgentInput>, now: number): void {
  doc.profiles[id] = {
    id,
    name: scalar(input.name),
    color: input.color,
    instructions: scalar(input.instructions),
    model: modelObject(input.model),
    tools: Object.fromEntries(input.tools.map((name) => [name, true as const])),
    createdAt: now,
    updatedAt: now,
  };
}

/** Writes the Planner's record afresh with its defaults, where it is missing or cannot be read (a damaged or hand-made write). */
export function restorePlanner(doc: AgentProfilesDocument, now: number): void {
  const defaults = plannerDefaults();
  putProfile(doc, defaults.id, { ...defaults, tools: Object.keys(defaults.tools) as Required<AgentInput>["tools"] }, now);
}

export function patchProfile(doc: AgentProfilesDocument, id: string, patch: AgentPatch, now: number): void {
  const profile = doc.profiles[id] as AgentProfileRecord;
  if (patch.name !== undefined) profile.name = scalar(patch.name);
  if (patch.color !== undefined) profile.color = patch.color;
  if (patch.instructions !== undefined) profile.instructions = scalar(patch.instructions);
  if (patch.model !== undefined) profile.model = modelObject(patch.model);
  if (patch.tools !== undefined) {
    if (profile.tools === null || typeof profile.tools !== "object") profile.tools = {};
    const allowed = new Set<string>(patch.tools);
    for (const name of AGENT_TOOL_NAMES) {
      if (allowed.has(name) && profile.tools[name] !== true) profile.tools[name] = true;
      else if (!allowed.has(name) && name in profile.tools) delete profile.tools[name];
    }
    // The Planner allows a later default tool unless its record declines it: turning one off is written as declined.
    if (id === PLANNER_AGENT_ID) {
      for (const name of PLANNER_LATER_DEFAULT_TOOLS) {
        const declined = profile.declinedTools;
        if (allowed.has(name) && declined?.[name] === true) delete declined[name];
        else if (!allowed.has(name) && declined?.[name] !== true) {
          if (declined === null || typeof declined !== "object") profile.declinedTools = { [name]: true };
          else declined[name] = true;
        }
      }
    }
  }
  profile.updatedAt = now;
}

export function deleteProfile(doc: AgentProfilesDocument, id: string): void {
  delete doc.profiles[id];
}
