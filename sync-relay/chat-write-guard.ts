/**
 * Who may change an agent chat's documents through this relay (issue #27): teammates read a person's chat, only its
 * person posts. Honest apps refuse such writes themselves (ConversationService, the document service); this keeps a
 * modified app from syncing changes into someone else's chat plan or its conversation through the relay.
 *
 * A chat is a row of the relay's table (shared/node/agent-chat-table.ts); its plan id and the conversation id derived
 * from it (conversationIdOf) are kept here in memory, loaded once at start and noted as each registration is
 * answered, so the relay asks a map per message, never the database. The map holds two entries per row, and the table
 * holds at most MAX_AGENT_CHATS_PER_TEAM rows, so it is bounded by that.
 *
 * What must stay true:
 *  - only writes are judged: a message without changes (heads, have/need, a request) passes, so teammates keep
 *    reading the chat live; documents not in the table are never judged;
 *  - a write is refused only from a user the relay can prove is not the chat's person: for a "device:<id>" chat, any
 *    user but the one who registered it; for a "github:<login>" chat, any GitHub sign-in but "gh:<login>". A relay-token
 *    user writing into a "github:<login>" chat is let through: the app links with its relay token whenever it has one
 *    (main/sync/relay-link.ts relayCredential), so the person's own apps write as a handle the relay cannot tie to a
 *    GitHub login, and refusing them would cut the person off from their own chat;
 *  - a refused write is dropped, not answered with a close: see server-adapter.ts (the sender's socket stays, so the
 *    same app keeps reading, and its sync recovers on the relay's next message).
 */
import { isValidDocumentId, type DocumentId } from "@automerge/automerge-repo";
import type { AgentChatRecord } from "../shared/node/agent-chat-table.js";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import { isGitHubIdentity } from "./authenticate.js";

const GITHUB_PERSON_PREFIX = "github:";

/** The one person a chat's documents belong to, as the relay can tell them from a socket's user. */
interface ChatOwner {
  person: string;
  registeredBy: string;
}

/** Whether `user` may change the documents of a chat of `owner` (see the rule at the top). */
export function mayWriteChat(owner: ChatOwner, user: string): boolean {
  if (owner.person.startsWith(GITHUB_PERSON_PREFIX)) {
    // registeredBy is "gh:<login>" exactly as the login was admitted (agent-chat-routes.ts registers no other).
    return !isGitHubIdentity(user) || user === owner.registeredBy;
  }
  return user === owner.registeredBy;
}

export class ChatWriteGuard {
  /** By document id: the chat plan's and its conversation's. */
  readonly #owners = new Map<string, ChatOwner>();
  /** Writes refused since start (messages and fast-path batches). */
  refused = 0;

  constructor(chats: Iterable<AgentChatRecord> = []) {
    for (const chat of chats) this.note(chat);
  }

  /** Guards a registered chat's documents from now on; the same chat again changes nothing. */
  note(chat: Pick<AgentChatRecord, "person" | "planId" | "registeredBy">): void {
    if (!isValidDocumentId(chat.planId)) return;
    const owner: ChatOwner = { person: chat.person, registeredBy: chat.registeredBy };
    this.#owners.set(chat.planId, owner);
    this.#owners.set(conversationIdOf(chat.planId as DocumentId), owner);
  }

  /** Whether the document is a registered chat's plan or conversation. */
  guards(documentId: string): boolean {
    return this.#owners.has(documentId);
  }

  /** Whether changes from `user` to `documentId` must be dropped (counted in `refused` when so). */
  refusesWrite(user: string | undefined, documentId: string): boolean {
    const owner = this.#owners.get(documentId);
    if (owner === undefined) return false;
    if (user !== undefined && mayWriteChat(owner, user)) return false;
    this.refused++;
    return true;
  }
}
