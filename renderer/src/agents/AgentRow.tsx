/**
 * One agent on the Agents page (issue #27): its avatar and name, what it runs on and how many tools it may use, a gear
 * to its configuration, Chat (this person's chat with it, renderer/src/agent-chat/) and, for any agent but the built-in
 * Planner, Remove (asked first). Under its facts, its teammates' chats with it as links (the table of chats), each opening
 * that chat's plan with its conversation beside it, read-only for this person.
 */
import type { AgentChatListing, AgentProfile } from "../../../shared/api.js";
import { Icon } from "../components/Icons.js";
import { AgentAvatar } from "./AgentAvatar.js";
import { modelWords, toolCountWords } from "./agent-words.js";

/** How a chat's person is named: their name or login when the table knows it, else their key. */
export function chatPersonWords(chat: AgentChatListing): string {
  return chat.person.name ?? chat.person.login ?? chat.person.key;
}

export function AgentRow({
  agent,
  editable,
  teammatesChats = [],
  onChat,
  onConfigure,
  onRemove,
  onOpenTeammatesChat,
}: {
  agent: AgentProfile;
  editable: boolean;
  /** Teammates' chats with this agent (never this person's own). */
  teammatesChats?: AgentChatListing[];
  onChat(): void;
  onConfigure(): void;
  onRemove(): void;
  onOpenTeammatesChat?(chat: AgentChatListing): void;
}) {
  return (
    <li className="agent-row">
      <AgentAvatar name={agent.name} color={agent.color} />
      <div className="agent-row-text">
        <span className="agent-name">
          {agent.name}
          {agent.builtIn && <span className="agent-badge">Built in</span>}
        </span>
        <span className="agent-facts">
          {modelWords(agent.model)} · {toolCountWords(agent)}
        </span>
        {teammatesChats.length > 0 && (
          <ul className="agent-teammates-chats" aria-label={`Teammates’ chats with ${agent.name}`}>
            {teammatesChats.map((chat) => (
              <li key={chat.planId}>
                <a
                  href={`#chat-${chat.planId}`}
                  className="link-button"
                  title={`Read ${chatPersonWords(chat)}’s chat with ${agent.name} (only they write in it)`}
                  onClick={(event) => {
                    event.preventDefault();
                    onOpenTeammatesChat?.(chat);
                  }}
                >
                  {chatPersonWords(chat)}’s chat
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="button button-small" aria-label={`Chat with ${agent.name}`} onClick={onChat}>
        <Icon name="chat" />
        Chat
      </button>
      {!agent.builtIn && (
        <button type="button" className="button button-small" aria-label={`Remove ${agent.name}`} disabled={!editable} onClick={onRemove}>
          Remove
        </button>
      )}
      <button type="button" className="icon-button" aria-label={`Configure ${agent.name}`} title={`Configure ${agent.name}`} disabled={!editable} onClick={onConfigure}>
        <Icon name="gear" />
      </button>
    </li>
  );
}
