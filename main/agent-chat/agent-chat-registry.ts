/**
 * The table of chats, from the app's side (issue #27): a chat begun here is registered in its scope's table, this
 * device's (chopin.db, for the device's own scope) at once, the team's at the relay now or, when the relay cannot be
 * reached, later; and a scope's chats are listed from that table. The derived plan id already makes two first sends
 * one chat; the table is what lets the relay (and this device) list chats and refuse a second plan for one (agent,
 * person) by a database constraint (shared/node/agent-chat-table.ts).
 *
 * What must stay true:
 *  - noting a chat never throws and never waits on the relay: a send is never blocked or failed by registration;
 *  - a team chat the relay could not take is tried again (backoff between RELAY chat-registration bounds, and at once
 *    when the relay link connects) until the relay answers; a refusal by the relay itself (wrong credential, another
 *    plan already registered) is kept, said, and not tried again until `retryNow` (credentials may have changed);
 *  - listing a team's chats asks the relay ('relay-unavailable' when it cannot be reached), a device's its own table;
 *  - the person's stars document in a team is registered the same way (noteStars), so the relay guards it as it guards
 *    their chats even before they have one; a device's stars never leave it, so nothing is registered for them.
 */
import type { AgentChatRegistration, AgentChatWireRecord } from "../../shared/agent-chat-wire.js";
import { toErrorShape, type ErrorShape } from "../../shared/errors.js";
import type { AgentChatScope } from "../../shared/node/agent-chat-identity.js";
import type { AgentChatRecord, AgentChatTable } from "../../shared/node/agent-chat-table.js";
import { AGENT_CHAT_REGISTER_RETRY_MAX_MS, AGENT_CHAT_REGISTER_RETRY_MIN_MS } from "../util/limits.js";

export interface AgentChatRegistryDeps {
  /** This device's table: the device scope's chats. */
  local: AgentChatTable;
  /** Who registers in the local table (this device's id). */
  deviceId: string;
  relay: {
    /** Registers at the configured relay; throws typed ('relay-unavailable' is worth trying again). */
    register(chat: AgentChatRegistration): Promise<unknown>;
    /** Registers the person's stars document in the team at the configured relay; throws as `register`. */
    registerStars(person: string): Promise<unknown>;
    list(): Promise<AgentChatWireRecord[]>;
    worthRetrying(error: unknown): boolean;
  };
  /** Told of a registration the relay or the table refused (once per chat and refusal). */
  onRefused?: (planId: string, refusal: ErrorShape) => void;
  retryMinMs?: number;
  retryMaxMs?: number;
}

type Pending = { team: string; chat: AgentChatRegistration } | { team: string; stars: string };

/** A stars registration's key among the plan ids (never a document id: it has a colon). */
export function starsKey(team: string, person: string): string {
  return `stars:${team}:${person}`;
}

/** The scope's name in a table: the team index's id, or this device's id. */
export function tableTeamOf(scope: AgentChatScope): string {
  return scope.kind === "team" ? scope.teamIndexId : `device:${scope.deviceId}`;
}

export class AgentChatRegistry {
  readonly #deps: AgentChatRegistryDeps;
  /** Team chats (by plan id) and people's stars (by starsKey) not registered at the relay yet, each with its team. */
  readonly #pending = new Map<string, Pending>();
  /** Chats (by plan id) and stars (by starsKey) registered or refused this run: noted again, they cost nothing. */
  readonly #settled = new Map<string, ErrorShape | null>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #attempt = 0;
  #running = false;
  #closed = false;
  /** Told once no registration is being tried (whenQuiet). */
  #quiet: Array<() => void> = [];

  constructor(deps: AgentChatRegistryDeps) {
    this.#deps = deps;
  }

  /** This person's chat `chat` exists in `scope` (its plan was begun or opened here): registered, now or later. */
  noteBegun(scope: AgentChatScope, chat: AgentChatRegistration): void {
    if (this.#closed || this.#settled.has(chat.planId)) return;
    if (scope.kind === "device") {
      try {
        this.#deps.local.register(tableTeamOf(scope), chat, this.#deps.deviceId);
        this.#settled.set(chat.planId, null);
      } catch (error) {
        this.#refused(chat.planId, toErrorShape(error));
      }
      return;
    }
    this.#pending.set(chat.planId, { team: scope.teamIndexId, chat });
    void this.#flush();
  }

  /** This person's stars document in `scope`, registered at the relay (a team's), now or later. */
  noteStars(scope: AgentChatScope, person: string): void {
    if (scope.kind !== "team") return;
    const key = starsKey(scope.teamIndexId, person);
    if (this.#closed || this.#settled.has(key)) return;
    this.#pending.set(key, { team: scope.teamIndexId, stars: person });
    void this.#flush();
  }

  /** What registering `planId` came to this run: null registered, a refusal, or undefined while pending or unknown. */
  outcome(planId: string): ErrorShape | null | undefined {
    return this.#settled.get(planId);
  }

  /**
   * Tries pending registrations now (the relay link connected, or credentials changed); chats refused before are
   * forgotten, so noting them again tries them again.
   */
  retryNow(): void {
    for (const [planId, outcome] of [...this.#settled]) if (outcome !== null) this.#settled.delete(planId);
    this.#attempt = 0;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    void this.#flush();
  }

  /**
   * As retryNow, and chats registered this run are registered again too: the relay token changed, and a GitHub
   * chat's registration is what links the new token to the login at the relay (sync-relay/token-links.ts).
   */
  registerAgain(): void {
    this.#settled.clear();
    this.retryNow();
  }

  /** Resolves once no registration is being tried: every pending one answered, or the relay unreachable for now. */
  whenQuiet(): Promise<void> {
    if (!this.#running && this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#quiet.push(resolve));
  }

  /** The chats `scope`'s table holds. */
  async list(scope: AgentChatScope): Promise<AgentChatRecord[]> {
    if (scope.kind === "device") return this.#deps.local.list(tableTeamOf(scope));
    return this.#deps.relay.list();
  }

  close(): void {
    this.#closed = true;
    for (const resolve of this.#quiet.splice(0)) resolve();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #flush(): Promise<void> {
    if (this.#running || this.#closed) return;
    this.#running = true;
    /** A chat could not be registered: the relay is out of reach for now, nothing more is tried this pass. */
    let unreachable = false;
    /** Stars could not be (a relay from before them answers 404): tried later, chats go on meanwhile. */
    let starsLater = false;
    try {
      // Chats first: a relay that cannot take stars yet (one from before them answers 404, worth trying later) never
      // holds back a chat's registration behind its own.
      const chatsFirst = [...this.#pending].sort(([, a], [, b]) => Number("stars" in a) - Number("stars" in b));
      for (const [planId, entry] of chatsFirst) {
        if (this.#closed) return;
        // Noted again while this registration was on its way (registerAgain: a new relay token to link), the chat stays
        // pending for another registration with what is current now, rather than taken as done by this one.
        const stillThis = () => this.#pending.get(planId) === entry;
        try {
          await ("chat" in entry ? this.#deps.relay.register(entry.chat) : this.#deps.relay.registerStars(entry.stars));
          if (!stillThis()) continue;
          this.#pending.delete(planId);
          this.#settled.set(planId, null);
        } catch (error) {
          if (this.#deps.relay.worthRetrying(error)) {
            if ("stars" in entry) {
              starsLater = true;
              continue;
            }
            unreachable = true;
            break;
          }
          if (!stillThis()) continue;
          this.#pending.delete(planId);
          this.#refused(planId, toErrorShape(error));
        }
      }
    } finally {
      this.#running = false;
    }
    // Noted while this pass ran: tried at once (stars that must wait only with them, never in a loop of their own).
    const notedMeanwhile = [...this.#pending.values()].some((entry) => "chat" in entry) || (!starsLater && this.#pending.size > 0);
    if (!this.#closed && !unreachable && notedMeanwhile) {
      void this.#flush();
      return;
    }
    if (!this.#closed) {
      if (unreachable || starsLater) this.#later();
      else this.#attempt = 0;
    }
    for (const resolve of this.#quiet.splice(0)) resolve();
  }

  #later(): void {
    if (this.#timer) return;
    const min = this.#deps.retryMinMs ?? AGENT_CHAT_REGISTER_RETRY_MIN_MS;
    const max = this.#deps.retryMaxMs ?? AGENT_CHAT_REGISTER_RETRY_MAX_MS;
    const delay = Math.min(max, min * 2 ** this.#attempt++);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#flush();
    }, delay);
    this.#timer.unref?.();
  }

  #refused(planId: string, refusal: ErrorShape): void {
    this.#settled.set(planId, refusal);
    this.#deps.onRefused?.(planId, refusal);
  }
}
