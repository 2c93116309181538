/**
 * Turns what a caller passed as a document id (an id or an automerge URL, from the UI, MCP or the relay link) into a
 * DocumentId, or refuses it with 'invalid-input'. What must stay true: nothing longer than MAX_DOCUMENT_ID_CHARS is
 * parsed, and anything that is not a valid id is refused here, before any lookup.
 */
import { interpretAsDocumentId, isValidDocumentId, type DocumentId } from "@automerge/automerge-repo";
import { ChopinError } from "../../shared/errors.js";
import { MAX_DOCUMENT_ID_CHARS } from "../util/limits.js";

export function parseDocumentId(id: unknown): DocumentId {
  if (typeof id === "string" && id.length > MAX_DOCUMENT_ID_CHARS) {
    throw new ChopinError("invalid-input", `A document id is at most ${MAX_DOCUMENT_ID_CHARS} characters.`);
  }
  if (typeof id === "string") {
    try {
      const documentId = interpretAsDocumentId(id as DocumentId);
      if (isValidDocumentId(documentId)) return documentId;
    } catch {
      // refused below
    }
  }
  throw new ChopinError("invalid-input", "That is not a document id.");
}
