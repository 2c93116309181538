/**
 * What the relay client reports when a document's sync message is larger than the relay accepts. The relay closes a
 * socket with 1009 for such a message, and the client would reconnect and send the same message again, forever,
 * while every other document waited behind it; so the client keeps the message back and says so instead.
 * What must stay true: the error names each document kept back (details.documentIds) and reads as one sentence a
 * person can act on; no documents means no error.
 */
import type { ErrorShape } from "../../shared/errors.js";

export interface TooLargeDocument {
  documentId: string;
  /** Size of the refused message as it would have gone on the wire. */
  bytes: number;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function tooLargeError(documents: readonly TooLargeDocument[], limitBytes: number): ErrorShape | null {
  if (documents.length === 0) return null;
  const first = documents[0]!;
  const message =
    documents.length === 1
      ? `Document ${first.documentId} is too large to sync (${mb(first.bytes)}; the relay accepts at most ${mb(limitBytes)} at once). It stays on this device; other documents keep syncing.`
      : `${documents.length} documents are too large to sync (the relay accepts at most ${mb(limitBytes)} at once), e.g. ${first.documentId} (${mb(first.bytes)}). They stay on this device; other documents keep syncing.`;
  return {
    code: "too-large",
    message,
    details: {
      documentId: first.documentId,
      documentIds: documents.map((d) => d.documentId),
      bytes: first.bytes,
      limitBytes,
    },
  };
}
