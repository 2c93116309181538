/**
 * A failed or unanswered turn's Retry (issue #27: "a failed or unanswered turn shows its error with a retry, and is
 * never silently dropped"), one rule for a plan's Planner conversation and an agent chat (Transcript.tsx, which both
 * use): a turn whose answer is the model provider's failure (`failed`) or whose begun mark was interrupted offers the
 * person who asked a Retry, which sends the asked message's words again as a new message to the agent. Who sends is
 * the transcript's owner (a plan posts to the Planner, a chat sends through sendAgentChat).
 *
 * What must stay true: the retry's clientRequestId derives from the failed turn alone (`retry:<turnId>`), so a double
 * click, a second window or a retry after a lost answer all post one message; a failure of the retry is its own turn,
 * whose retry derives from that turn's id. It is offered only for this person's own message (`mine`: this device's; in
 * an agent chat, whose every message is its person's, from any of their devices) and never while a turn runs in the
 * conversation.
 */
import type { ConversationEntryView } from "../../../shared/api.js";
import { RETRY_LABEL_MAX_CHARS } from "../limits.js";

/** What a Retry sends: the asked message's words (and references), under the failed turn's own key. */
export interface TurnRetryRequest {
  text: string;
  clientRequestId: string;
  /** The documents the asked message referenced; a chat's sends carry none. */
  references: string[];
}

/** Sends a retry as the transcript's owner sends to its agent; a refusal is thrown (the transcript says it). */
export type RetryTurn = (request: TurnRetryRequest) => Promise<unknown>;

/** The idempotency key of the retry of the turn that answered (or began to answer) the message `turnId`. */
export function retryRequestId(turnId: string): string {
  return `retry:${turnId}`;
}

/** The Retry's accessible name: "Retry: " and the asked words' start, whole words while they fit, else cut with …. */
export function retryLabel(text: string): string {
  const words = text.split(/\s+/).filter((word) => word !== "");
  const whole = words.join(" ");
  if (whole.length <= RETRY_LABEL_MAX_CHARS) return `Retry: ${whole}`;
  let start = "";
  for (const word of words) {
    const next = start === "" ? word : `${start} ${word}`;
    if (next.length > RETRY_LABEL_MAX_CHARS - 1) break;
    start = next;
  }
  return `Retry: ${start === "" ? whole.slice(0, RETRY_LABEL_MAX_CHARS - 1) : start}…`;
}

/** The request a Retry of the message `asked` sends. */
export function retryRequest(asked: ConversationEntryView): TurnRetryRequest {
  return { text: asked.text, clientRequestId: retryRequestId(asked.id), references: (asked.references ?? []).map((reference) => reference.documentId) };
}

/**
 * The message a turn answered, when its person here may retry it: theirs, a message to the agent, in the entries
 * read, and no turn running now; else null.
 */
export function retryableAsked(entries: readonly ConversationEntryView[], turnId: string, turnRunning: boolean, anyDeviceOfThisPerson = false): ConversationEntryView | null {
  if (turnRunning) return null;
  const asked = entries.find((entry) => entry.id === turnId);
  return asked && (asked.mine || anyDeviceOfThisPerson) && asked.author.kind === "person" && asked.to === "planner" ? asked : null;
}

/** The Retry itself: visibly "Retry", named for the words it sends again. */
export function RetryButton({ asked, onRetry }: { asked: ConversationEntryView; onRetry: () => void }) {
  return (
    <button type="button" className="link-button" aria-label={retryLabel(asked.text)} onClick={onRetry}>
      Retry
    </button>
  );
}
