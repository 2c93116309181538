/**
 * Who may change an agent chat's documents through this relay (issue #27): teammates read a person's chat, only its
 * person posts. Honest apps refuse such writes themselves (ConversationService, the document service); this keeps a
 * modified app from syncing changes into someone else's chat plan or its conversation through the relay.
 *
 * A chat is a row of the relay's table (shared/node/agent-chat-table.ts); its plan id and the conversation id derived
 * from it (conversationIdOf) are kept here in memory, loaded once at start and noted as each registration is
 * answered, so the relay asks a map per message, never the database. The person's stars document in the team
 * (shared/node/agent-stars-identity.ts, derived from the team and the person) is theirs the same way, guarded from
 * their first registered chat or their stars' own registration (agent-stars-owners.ts) on: a registration is where
 * the relay learns who speaks for a person. The map holds at most three entries per chat and one per stars
 * registration, bounded by MAX_AGENT_CHATS_PER_TEAM and RELAY_MAX_AGENT_STARS_OWNERS.
 *
 * What must stay true:
 *  - only writes are judged: a message without changes (heads, have/need, a request) passes, so teammates keep
 *    reading the chat live; documents not in the table are never judged;
 *  - a write is allowed only from the chat's person as the relay can tell them: for a "device:<id>" chat, the user who
 *    registered it; for a "github:<login>" chat, the GitHub sign-in "gh:<login>" and the relay-token users linked to
 *    it (token-links.ts: the person's apps link with their relay token whenever they have one, main/sync/relay-link.ts
 *    relayCredential, and prove both identities when they register the chat). Every other user's changes are
 *    dropped, relay-token users included;
 *  - the links are a map beside the chats', loaded at start and noted as each link is recorded (before the
 *    registration that asked for it is answered), bounded by RELAY_MAX_TOKEN_LINKS;
 *  - a refused write is dropped, not answered with a close: see server-adapter.ts (the sender's socket stays, so the
 *    same app keeps reading, and its sync recovers on the relay's next message).
 */
import { next as A } from "@automerge/automerge";
import { isValidDocumentId, type DocumentId } from "@automerge/automerge-repo";
import type { AgentChatRecord } from "../shared/node/agent-chat-table.js";
import { agentStarsIdOf } from "../shared/node/agent-stars-identity.js";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import type { AgentStarsOwner } from "./agent-stars-owners.js";
import type { TokenLink } from "./token-links.js";

const GITHUB_PERSON_PREFIX = "github:";

/** The one person a chat's documents belong to, as the relay can tell them from a socket's user. */
interface ChatOwner {
  person: string;
  registeredBy: string;
}

/**
 * Whether `user` may change the documents of a chat of `owner` (see the rule at the top); `linkedTo` is the GitHub
 * identity `user` is linked to as a relay-token user (token-links.ts), if any.
 */
export function mayWriteChat(owner: ChatOwner, user: string, linkedTo?: string | null): boolean {
  if (owner.person.startsWith(GITHUB_PERSON_PREFIX)) {
    // registeredBy is "gh:<login>" exactly as the login was admitted (agent-chat-routes.ts registers no other).
    return user === owner.registeredBy || (linkedTo != null && linkedTo === owner.registeredBy);
  }
  return user === owner.registeredBy;
}

export class ChatWriteGuard {
  /** By document id: the chat plan's, its conversation's, and its person's stars document in the team's. */
  readonly #owners = new Map<string, ChatOwner>();
  /** The team's index document id, which a person's stars id is derived from (null: stars are not guarded). */
  readonly #team: string | null;
  /** Relay-token user -> the GitHub identity it speaks for. */
  readonly #links = new Map<string, string>();
  /** Writes refused since start (messages and fast-path batches). */
  refused = 0;

  constructor(chats: Iterable<AgentChatRecord> = [], links: Iterable<TokenLink> = [], team: string | null = null, stars: Iterable<AgentStarsOwner> = []) {
    this.#team = team;
    for (const chat of chats) this.note(chat);
    for (const registered of stars) this.noteStars(registered);
    for (const link of links) this.noteLink(link);
  }

  /** `link.tokenUser` speaks for `link.githubUser` from now on (the table keeps one login per token user). */
  noteLink(link: TokenLink): void {
    this.#links.set(link.tokenUser, link.githubUser);
  }

  /** Guards a registered chat's documents from now on; the same chat again changes nothing. */
  note(chat: Pick<AgentChatRecord, "person" | "planId" | "registeredBy">): void {
    if (!isValidDocumentId(chat.planId)) return;
    const owner: ChatOwner = { person: chat.person, registeredBy: chat.registeredBy };
    this.#owners.set(chat.planId, owner);
    this.#owners.set(conversationIdOf(chat.planId as DocumentId), owner);
    // Every chat of a person has the same owner (agent-chat-routes.ts: a device key is its first registrant's).
    const stars = this.#team === null ? null : starsIdOf(this.#team, chat.person);
    if (stars !== null) this.#owners.set(stars, owner);
  }

  /** Guards a person's registered stars document from now on (its id as the relay derived it). */
  noteStars(stars: Pick<AgentStarsOwner, "person" | "documentId" | "registeredBy">): void {
    this.#owners.set(stars.documentId, { person: stars.person, registeredBy: stars.registeredBy });
  }

  /** Whether the document is a registered chat's plan or conversation, or a registered person's stars. */
  guards(documentId: string): boolean {
    return this.#owners.has(documentId);
  }

  /**
   * Whether changes from `user` to `documentId` must be dropped (counted in `refused` when so). `allKnown`, asked only
   * of a user who may not write there, says the relay already holds every one of the changes: an honest teammate's
   * app offering back what it received writes nothing, so its message passes (its sync state stays whole).
   */
  refusesWrite(user: string | undefined, documentId: string, allKnown?: () => boolean): boolean {
    const owner = this.#owners.get(documentId);
    if (owner === undefined) return false;
    if (user !== undefined && mayWriteChat(owner, user, this.#links.get(user))) return false;
    if (allKnown?.()) return false;
    this.refused++;
    return true;
  }
}

/** The person's stars document in the team, or null for a key no stars document can have (not one line). */
function starsIdOf(team: string, person: string): string | null {
  try {
    return agentStarsIdOf({ scope: { kind: "team", teamIndexId: team }, person });
  } catch {
    return null;
  }
}

/**
 * Whether `doc` (the relay's copy, undefined when it holds none in memory) already has every one of `changes`, so
 * applying them would write nothing; a change that does not decode is not held.
 */
export function holdsAll(doc: A.Doc<unknown> | undefined, changes: readonly Uint8Array[]): boolean {
  if (doc === undefined) return false;
  try {
    return A.getMissingDeps(doc, changes.map((change) => A.decodeChange(change).hash)).length === 0;
  } catch {
    return false;
  }
}
