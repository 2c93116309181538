/**
 * The agent profiles that apply on this app now (issue #27): with a relay configured, its team's (one Automerge document
 * at an id derived from the team index's, shared with the team exactly while that relay is the configured one: the
 * core's share decision asks `isTeamDocument`); without one, this device's (never shared). Profiles made in one scope
 * stay there: joining a team carries no profile of this device to it, and switching relays carries no team's profiles
 * to another, as with plans.
 *
 * What must stay true:
 *  - while agent chat is off on this app, every call refuses with 'agent-chat-disabled' and nothing is opened, written
 *    or deleted; profiles already kept stay as they are;
 *  - a document held in storage is opened from it, never begun again over it (begun from the shared genesis only where
 *    none is held), so a member's first use merges with the team's profiles instead of replacing them;
 *  - while a relay is configured but its team is not known yet, nothing is written anywhere (a write would land in a
 *    document no teammate shares) and only the Planner is listed;
 *  - a write answers once it is on disk here; "agents-changed" is said for every change of the current document (this
 *    app's writes and teammates' alike) and whenever the scope changes, while agent chat is on.
 */
import { randomBytes } from "node:crypto";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import type { AgentInput, AgentList, AgentPatch, AgentProfile } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_AGENT_PROFILES } from "../../shared/limits.js";
import {
  AGENT_PROFILES_SCHEMA_VERSION,
  DEFAULT_AGENT_COLOR,
  DEFAULT_AGENT_TOOLS,
  PLANNER_AGENT_ID,
  PLANNER_AGENT_NAME,
  AGENT_PROFILE_FIELDS,
  storedAgentProfileSchema,
  type AgentProfilesDocument,
} from "../../shared/schema/agent-profiles.js";
import { agentProfilesGenesis, agentProfilesIdOf, type AgentProfilesScope } from "./agent-profiles-identity.js";
import { listOf, plannerProfile, readProfiles } from "./agent-profiles-read.js";
import { deleteProfile, patchProfile, putProfile, restorePlanner } from "./agent-profiles-write.js";

export const AGENT_CHAT_DISABLED_MESSAGE =
  "Agent chat is turned off on this app: turn it on in Settings → Experimental (or start Chopin with --enable-agent-chat). Agent profiles are kept while it is off.";

export interface AgentProfilesDeps {
  repo: Repo;
  /** Whether storage holds anything of a document (so it is opened, not begun). */
  holds(documentId: string): boolean;
  /** This installation's device id: the device scope's document is derived from it. */
  deviceId: string;
  /** Whether agent chat is on here now (main/agents/agent-chat-switch.ts). */
  chatOn(): boolean;
  /** Hears the list whenever it changed, only while agent chat is on. */
  changed(list: AgentList): void;
  now?: () => number;
  newId?: () => string;
}

type ProfilesHandle = DocHandle<AgentProfilesDocument>;
interface Opened {
  id: DocumentId;
  scope: AgentProfilesScope;
  opening: Promise<ProfilesHandle>;
  stop: () => void;
}

export class AgentProfiles {
  readonly #deps: AgentProfilesDeps;
  readonly #now: () => number;
  readonly #newId: () => string;
  #relayUrl: string | null = null;
  #teamIndexId: string | null = null;
  #teamDocumentId: DocumentId | null = null;
  #current: Opened | null = null;

  constructor(deps: AgentProfilesDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#newId = deps.newId ?? (() => randomBytes(16).toString("hex"));
  }

  /** The configured relay's address (null: none). Another relay's team and its profiles stop applying at once. */
  setRelay(url: string | null): void {
    if (url === this.#relayUrl) return;
    this.#relayUrl = url;
    this.#teamIndexId = null;
    this.#scopeChanged();
  }

  /** The configured relay's team, by its team index's id (null: not known, or no relay). */
  setTeam(teamIndexId: string | null): void {
    if (teamIndexId === this.#teamIndexId) return;
    this.#teamIndexId = teamIndexId;
    this.#scopeChanged();
  }

  /** The share decision's part: whether `documentId` is the configured relay team's profiles document. */
  isTeamDocument(documentId: string): boolean {
    return this.#teamDocumentId !== null && documentId === this.#teamDocumentId;
  }

  /** Agent chat was turned on or off: while on, the current document is opened and its list said. */
  switched(): void {
    if (!this.#deps.chatOn()) return;
    this.list().then(
      (list) => this.#deps.changed(list),
      () => undefined, // Said by the next call that needs it (a storage failure, say): nothing waits for this one.
    );
  }

  async list(): Promise<AgentList> {
    this.#needOn();
    const opened = this.#open();
    if (!opened) return { scope: "team", teamPending: true, agents: [plannerProfile()], unreadable: 0 };
    const handle = await opened.opening;
    return listOf(readProfiles(handle.doc()), opened.scope.kind);
  }

  /** One profile of the current scope ('agent-not-found' when it holds none by that id; readable ones only). */
  async find(id: string): Promise<AgentProfile> {
    const found = (await this.list()).agents.find((agent) => agent.id === id);
    if (!found) throw this.#notFound();
    return found;
  }

  /** The scope whose profiles apply now (agent chats are derived from it), or null while the team is pending. */
  currentScope(): AgentProfilesScope | null {
    return this.#scope();
  }

  async create(input: AgentInput): Promise<AgentProfile> {
    const { handle, scope } = await this.#writable();
    const read = readProfiles(handle.doc());
    this.#needFreeName(read.agents, input.name, null);
    const others = [...read.ids].filter((id) => id !== PLANNER_AGENT_ID).length;
    if (others >= MAX_AGENT_PROFILES) {
      const keeper = scope.kind === "team" ? "A team keeps" : "This device keeps";
      throw new ChopinError("too-large", `${keeper} at most ${MAX_AGENT_PROFILES} agents besides the Planner: remove one to add another.`);
    }
    const id = this.#newId();
    const filled: Required<AgentInput> = {
      name: input.name,
      color: input.color ?? DEFAULT_AGENT_COLOR,
      instructions: input.instructions ?? "",
      model: input.model ?? { kind: "team-default" },
      tools: input.tools ?? [...DEFAULT_AGENT_TOOLS],
    };
    handle.change((doc) => putProfile(doc, id, filled, this.#now()));
    return this.#saved(handle, id);
  }

  async update(id: string, patch: AgentPatch): Promise<AgentProfile> {
    const { handle } = await this.#writable();
    const builtIn = id === PLANNER_AGENT_ID;
    if (builtIn && patch.name !== undefined && patch.name !== PLANNER_AGENT_NAME) {
      throw new ChopinError("agent-built-in", `${AGENT_PROFILE_FIELDS.name}: the Planner keeps its name (people call it with @Planner); its colour, instructions, model and tools can change.`);
    }
    const read = readProfiles(handle.doc());
    if (!builtIn) {
      if (!read.ids.has(id)) throw this.#notFound();
      if (!read.agents.some((agent) => agent.id === id)) {
        throw new ChopinError("invalid-document", "That agent's profile cannot be read on this app (a newer Chopin made it, or it is damaged), so it was not changed.");
      }
      if (patch.name !== undefined) this.#needFreeName(read.agents, patch.name, id);
    }
    // The Planner's record missing or unreadable: written afresh with its defaults, then changed as asked.
    const plannerLost = builtIn && !storedAgentProfileSchema.safeParse(handle.doc().profiles?.[PLANNER_AGENT_ID]).success;
    handle.change((doc) => {
      if (plannerLost) restorePlanner(doc, this.#now());
      patchProfile(doc, id, patch, this.#now());
    });
    return this.#saved(handle, id);
  }

  async remove(id: string): Promise<void> {
    const { handle } = await this.#writable();
    if (id === PLANNER_AGENT_ID) {
      throw new ChopinError("agent-built-in", "The Planner is built in and cannot be removed; its colour, instructions, model and tools can change.");
    }
    if (!readProfiles(handle.doc()).ids.has(id)) throw this.#notFound();
    handle.change((doc) => deleteProfile(doc, id));
    await this.#deps.repo.flush([handle.documentId]);
  }

  #needOn(): void {
    if (!this.#deps.chatOn()) throw new ChopinError("agent-chat-disabled", AGENT_CHAT_DISABLED_MESSAGE);
  }

  #notFound(): ChopinError {
    return new ChopinError("agent-not-found", "There is no agent with that id: it may have been removed, here or by a teammate. Nothing was changed.");
  }

  /** Two agents are told apart by name (the Planner's included), whatever the case. */
  #needFreeName(agents: AgentProfile[], name: string, self: string | null): void {
    const taken = agents.find((agent) => agent.id !== self && agent.name.localeCompare(name, "en", { sensitivity: "base" }) === 0);
    if (taken) throw new ChopinError("invalid-input", `${AGENT_PROFILE_FIELDS.name}: another agent is called “${taken.name}”; choose another name.`, { field: "name" });
  }

  /** The current document, open, for a write: refused while agent chat is off, the team is pending, or it is newer. */
  async #writable(): Promise<{ handle: ProfilesHandle; scope: AgentProfilesScope }> {
    this.#needOn();
    const opened = this.#open();
    if (!opened) {
      throw new ChopinError("relay-unavailable", "The team's agents have not reached this device yet: it has not reached the relay since it was set up. Nothing was changed; try again once it is connected.");
    }
    const handle = await opened.opening;
    const version = handle.doc().schemaVersion;
    if (typeof version === "number" && version > AGENT_PROFILES_SCHEMA_VERSION) {
      throw new ChopinError("invalid-document", "These agent profiles were written by a newer Chopin: update Chopin to change them. Nothing was changed.");
    }
    return { handle, scope: opened.scope };
  }

  async #saved(handle: ProfilesHandle, id: string): Promise<AgentProfile> {
    // Answered once on disk: a profile the window was told about survives a crash right after the answer.
    await this.#deps.repo.flush([handle.documentId]);
    const found = readProfiles(handle.doc()).agents.find((agent) => agent.id === id);
    if (!found) throw this.#notFound();
    return found;
  }

  #scope(): AgentProfilesScope | null {
    if (this.#relayUrl === null) return { kind: "device", deviceId: this.#deps.deviceId };
    return this.#teamIndexId === null ? null : { kind: "team", teamIndexId: this.#teamIndexId };
  }

  #scopeChanged(): void {
    const scope = this.#scope();
    this.#teamDocumentId = scope?.kind === "team" ? agentProfilesIdOf(scope) : null;
    this.#current?.stop();
    this.#current = null;
    this.switched();
  }

  /** The current scope's document, opened once (again after a failed opening); null while the team is pending. */
  #open(): Opened | null {
    const scope = this.#scope();
    if (!scope) return null;
    const id = agentProfilesIdOf(scope);
    if (this.#current?.id === id) return this.#current;
    const opened: Opened = { id, scope, opening: Promise.resolve(null as never), stop: () => undefined };
    opened.opening = this.#begin(opened);
    opened.opening.catch(() => {
      if (this.#current === opened) this.#current = null;
    });
    this.#current = opened;
    return opened;
  }

  async #begin(opened: Opened): Promise<ProfilesHandle> {
    const { repo, holds } = this.#deps;
    const known = repo.handles[opened.id] as ProfilesHandle | undefined;
    let handle: ProfilesHandle;
    if (known?.isReady()) handle = known;
    else if (holds(opened.id)) handle = await repo.find<AgentProfilesDocument>(opened.id);
    else handle = repo.import<AgentProfilesDocument>(agentProfilesGenesis(opened.scope), { docId: opened.id });
    await handle.whenReady();
    if (this.#current !== opened) return handle;
    const onChange = () => {
      if (this.#current === opened && this.#deps.chatOn()) this.#deps.changed(listOf(readProfiles(handle.doc()), opened.scope.kind));
    };
    handle.on("change", onChange);
    opened.stop = () => handle.off("change", onChange);
    return handle;
  }
}
