/**
 * Where a plan's conversation lives and how it begins, computed rather than stored: the conversation's document id is
 * derived from the plan's, and its first change is the same bytes on every device. So any replica that holds a plan
 * can open its conversation without asking anyone, two devices that start it offline start the same document (same
 * genesis hash: their entries merge, nothing is lost to a conflict over which document is "the" conversation), and
 * the relay can tell a conversation's plan from the plans it knows.
 *
 * What must stay true: the derivation and the genesis never change for schema version 1 (a change would split every
 * existing conversation from its plan); an entry's id depends only on who sent it and their clientRequestId.
 */
import { createHash } from "node:crypto";
import { next as A } from "@automerge/automerge";
import { documentIdToBinary, interpretAsDocumentId, type DocumentId } from "@automerge/automerge-repo";
import { CONVERSATION_SCHEMA_VERSION, type Author, type ConversationDocument } from "../schema/conversation.js";

const ID_DOMAIN = "chopin/conversation-id/v1\n";
const GENESIS_ACTOR_DOMAIN = "chopin/conversation-genesis/v1\n";
const ENTRY_DOMAIN = "chopin/conversation-entry/v1\n";

function binaryOf(planId: DocumentId): Uint8Array {
  const binary = documentIdToBinary(planId);
  if (!binary) throw new TypeError("not a document id");
  return binary;
}

function digest(domain: string, ...parts: (string | Uint8Array)[]): Buffer {
  const hash = createHash("sha256").update(domain);
  for (const part of parts) hash.update(part).update("\n");
  return hash.digest();
}

/** The conversation document's id for a plan: 16 bytes of a domain-separated hash of the plan's binary id. */
export function conversationIdOf(planId: DocumentId): DocumentId {
  return interpretAsDocumentId(new Uint8Array(digest(ID_DOMAIN, binaryOf(planId)).subarray(0, 16)) as never);
}

/**
 * The conversation's first change, identical everywhere: a fixed actor derived from the plan, time 0, the same
 * operations. Imported under conversationIdOf(plan) wherever the conversation does not exist yet.
 */
export function conversationGenesis(planId: DocumentId): Uint8Array {
  const actor = digest(GENESIS_ACTOR_DOMAIN, binaryOf(planId)).subarray(0, 16).toString("hex");
  const doc = A.change(A.init<ConversationDocument>({ actor }), { time: 0 }, (d) => {
    d.schemaVersion = CONVERSATION_SCHEMA_VERSION;
    d.kind = "conversation";
    d.planId = new A.RawString(planId) as unknown as string;
    d.entries = {};
  });
  return A.save(doc);
}

/** Who an entry is from, as a key: a person by GitHub login when signed in, else by device; the Planner; the system. */
export function authorKey(author: Author): string {
  if (author.kind !== "person") return author.kind;
  return author.login ? `github:${author.login.toLowerCase()}` : `device:${author.device}`;
}

/** An entry's id: the same for every retry of one send by one author, and different for anyone else's. */
export function entryIdOf(author: Author, clientRequestId: string): string {
  return digest(ENTRY_DOMAIN, authorKey(author), clientRequestId).subarray(0, 16).toString("hex");
}
