/**
 * This person's sends to the agent that wait in this device's outbox (issue #27, main/agent-chat/chat-outbox.ts),
 * after the chat's transcript: written, kept on this device, not yet in the conversation (the relay's team not known
 * yet, agent chat turned off meanwhile) or refused for good (the agent removed...). Each says which, in a sentence.
 *
 * What must stay true: a waiting send is never offered as failed (the outbox delivers it by itself, in order); a send
 * refused for good is retried with its own clientRequestId and words, so the outbox finds its row, never a second one.
 */
import type { AgentChatOutboxMessage } from "../../../shared/api.js";
import { MessageMarkdown } from "../conversation/MessageMarkdown.js";

export function OutboxMessages({ messages, retry }: { messages: AgentChatOutboxMessage[]; retry(message: AgentChatOutboxMessage): void }) {
  if (messages.length === 0) return null;
  return (
    <ol className="messages chat-outbox" aria-label="Waiting to send">
      {messages.map((message) => (
        <li key={message.clientRequestId} className={`message message-person is-mine is-unconfirmed${message.status === "failed" ? " is-failed" : ""}`} data-request-id={message.clientRequestId}>
          <div className="message-meta">
            <span className="message-author">You</span>
          </div>
          <MessageMarkdown text={message.text} />
          {message.status === "waiting" ? (
            <div className="message-state" title={message.error?.message}>
              Waiting to send: kept on this device, it goes out by itself, in order{message.error ? ` (${message.error.message})` : "."}
            </div>
          ) : (
            <div className="message-state is-failed" role="alert">
              Not sent: {message.error?.message ?? "refused."}{" "}
              <button type="button" className="link-button" onClick={() => retry(message)}>
                Retry
              </button>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
