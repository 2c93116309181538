/**
 * The sidebar's Agents (issue #27): this person's starred agents alphabetically, then the AGENT_SIDEBAR_RECENTS most
 * recently visited unstarred chats, from the profiles that apply now, the person's stars (agent-stars.ts, synced with
 * their devices in the team) and this device's visits (main/store/agent-chat-visits.ts).
 *
 * What must stay true:
 *  - while agent chat is off every call refuses with 'agent-chat-disabled' (the profiles' refusal) and nothing is said;
 *  - an agent no longer in the current scope is in neither list; a starred agent is never among the recents;
 *  - only `recordVisit` (the chat view showing a chat) makes a recent;
 *  - the person is asked at every call (signing in to GitHub makes another person, with their own stars and visits);
 *  - "agent-sidebar-changed" is said, in order, after every change that can move it: a star here or from another of
 *    the person's devices, a visit, the profiles or their scope ("agents-changed"), the person.
 */
import type { AgentList, AgentProfile, AgentSidebar, AgentSidebarEntry } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { AGENT_SIDEBAR_RECENTS, MAX_AGENT_STARS } from "../../shared/limits.js";
import type { AgentChatVisits } from "../store/agent-chat-visits.js";
import type { AgentProfilesScope } from "./agent-profiles-identity.js";
import type { AgentStars } from "./agent-stars.js";
import type { StarsOwner } from "../../shared/node/agent-stars-identity.js";

export interface AgentSidebarDeps {
  profiles: {
    /** Refuses 'agent-chat-disabled' while agent chat is off. */
    list(): Promise<AgentList>;
    currentScope(): AgentProfilesScope | null;
  };
  stars: Pick<AgentStars, "read" | "set">;
  visits: Pick<AgentChatVisits, "record" | "recent">;
  /** This app's person: "github:<login>" when signed in, else "device:<device id>". */
  personKey(): string;
  chatOn(): boolean;
  changed(sidebar: AgentSidebar): void;
  now?: () => number;
}

const collator = new Intl.Collator("en", { sensitivity: "base" });
const byName = (a: AgentProfile, b: AgentProfile) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const entryOf = (agent: AgentProfile): AgentSidebarEntry => ({ id: agent.id, name: agent.name, color: agent.color });

export class AgentSidebarService {
  readonly #deps: AgentSidebarDeps;
  readonly #now: () => number;
  #saying: Promise<void> = Promise.resolve();
  #queued = false;

  constructor(deps: AgentSidebarDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  async read(): Promise<AgentSidebar> {
    const list = await this.#deps.profiles.list();
    const owner = this.#owner(list);
    if (!owner) return { starred: [], recent: [] };
    const starredIds = (await this.#deps.stars.read(owner)).ids;
    const starred = list.agents.filter((agent) => starredIds.has(agent.id)).sort(byName).slice(0, MAX_AGENT_STARS);
    const byId = new Map(list.agents.map((agent) => [agent.id, agent]));
    const recent = this.#deps.visits
      .recent(owner.scope, owner.person)
      .filter((id) => byId.has(id) && !starredIds.has(id))
      .slice(0, AGENT_SIDEBAR_RECENTS)
      .map((id) => byId.get(id)!);
    return { starred: starred.map(entryOf), recent: recent.map(entryOf) };
  }

  async setStarred(agentId: string, starred: boolean): Promise<AgentSidebar> {
    const { list, owner } = await this.#forWrite(agentId);
    await this.#deps.stars.set(owner, agentId, starred, new Set(list.agents.map((agent) => agent.id)));
    return this.read();
  }

  async recordVisit(agentId: string): Promise<AgentSidebar> {
    const { owner } = await this.#forWrite(agentId);
    this.#deps.visits.record(owner.scope, owner.person, agentId, this.#now());
    this.mayHaveChanged();
    return this.read();
  }

  /** Something the sidebar shows may have changed: read it again and say it (one read at a time, in order). */
  mayHaveChanged(): void {
    if (!this.#deps.chatOn() || this.#queued) return;
    this.#queued = true;
    this.#saying = this.#saying.then(async () => {
      this.#queued = false;
      if (!this.#deps.chatOn()) return;
      try {
        this.#deps.changed(await this.read());
      } catch {
        // Turned off meanwhile, or storage failing: the next call that needs the sidebar says why.
      }
    });
  }

  #owner(list: AgentList): StarsOwner | null {
    const scope = this.#deps.profiles.currentScope();
    if (list.teamPending || !scope) return null;
    return { scope, person: this.#deps.personKey() };
  }

  async #forWrite(agentId: string): Promise<{ list: AgentList; owner: StarsOwner }> {
    const list = await this.#deps.profiles.list();
    const owner = this.#owner(list);
    if (!owner) throw new ChopinError("relay-unavailable", "The team's agents have not reached this device yet: it has not reached the relay since it was set up. Nothing was changed; try again once it is connected.");
    if (!list.agents.some((agent) => agent.id === agentId)) {
      throw new ChopinError("agent-not-found", "There is no agent with that id: it may have been removed, here or by a teammate. Nothing was changed.");
    }
    return { list, owner };
  }
}
