/**
 * This person's sends to the agent that wait in this device's outbox (issue #27, main/agent-chat/chat-outbox.ts),
 * after the chat's transcript: written, kept on this device, not yet in the conversation (the relay's team not known
 * yet, agent chat turned off meanwhile) or refused for good (the agent removed...). Each says which, in a sentence, and
 * each can be discarded.
 *
 * What must stay true: a waiting send is never offered as failed (the outbox delivers it by itself, in order); a send
 * refused for good is retried with its own clientRequestId and words, so the outbox finds its row, never a second one;
 * discarding loses nothing typed without asking: when the composer is empty the words go back into it (no question
 * asked), and when it holds other words the person is asked first, since the discarded words would not be kept.
 */
import { useId, useState } from "react";
import type { AgentChatOutboxMessage } from "../../../shared/api.js";
import { MessageMarkdown } from "../conversation/MessageMarkdown.js";

export interface OutboxActions {
  retry(message: AgentChatOutboxMessage): void;
  /** Discards the send (its words then go back into the composer when it is empty). */
  discard(message: AgentChatOutboxMessage): Promise<void>;
  /** The composer is empty, so a discarded send's words can go back into it and nothing needs asking. */
  wordsGoBack(): boolean;
}

export function OutboxMessages({ messages, ...actions }: { messages: AgentChatOutboxMessage[] } & OutboxActions) {
  const baseId = useId();
  if (messages.length === 0) return null;
  return (
    <ol className="messages chat-outbox" aria-label="Waiting to send">
      {messages.map((message, i) => (
        <OutboxMessage key={message.clientRequestId} message={message} textId={`${baseId}-${i}`} {...actions} />
      ))}
    </ol>
  );
}

function OutboxMessage({ message, textId, retry, discard, wordsGoBack }: { message: AgentChatOutboxMessage; textId: string } & OutboxActions) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setAsking(false);
    setBusy(true);
    try {
      await discard(message);
    } finally {
      setBusy(false);
    }
  };
  const discardButton = (
    <button type="button" className="link-button" aria-describedby={textId} disabled={busy || asking} onClick={() => (wordsGoBack() ? void go() : setAsking(true))}>
      Discard
    </button>
  );
  return (
    <li className={`message message-person is-mine is-unconfirmed${message.status === "failed" ? " is-failed" : ""}`} data-request-id={message.clientRequestId}>
      <div className="message-meta">
        <span className="message-author">You</span>
      </div>
      <div id={textId}>
        <MessageMarkdown text={message.text} />
      </div>
      {message.status === "waiting" ? (
        <div className="message-state" title={message.error?.message}>
          Waiting to send: kept on this device, it goes out by itself, in order{message.error ? ` (${message.error.message})` : "."} {discardButton}
        </div>
      ) : (
        <div className="message-state is-failed" role="alert">
          Not sent: {message.error?.message ?? "refused."}{" "}
          <button type="button" className="link-button" disabled={busy} onClick={() => retry(message)}>
            Retry
          </button>{" "}
          {discardButton}
        </div>
      )}
      {asking && (
        <div className="message-state" role="group" aria-label="Discard this message?">
          Your message box holds other words, so this message's words cannot go back into it: discard it for good?{" "}
          <button type="button" className="link-button" onClick={() => void go()}>
            Discard for good
          </button>{" "}
          <button type="button" className="link-button" autoFocus onClick={() => setAsking(false)}>
            Keep it
          </button>
        </div>
      )}
    </li>
  );
}
