/**
 * One agent on the Agents page (issue #27): its avatar and name, what it runs on and how many tools it may use, a gear
 * to its configuration, Chat (this person's chat with it, renderer/src/agent-chat/) and, for any agent but the built-in
 * Planner, Remove (asked first).
 */
import type { AgentProfile } from "../../../shared/api.js";
import { Icon } from "../components/Icons.js";
import { AgentAvatar } from "./AgentAvatar.js";
import { modelWords, toolCountWords } from "./agent-words.js";

export function AgentRow({ agent, editable, onChat, onConfigure, onRemove }: { agent: AgentProfile; editable: boolean; onChat(): void; onConfigure(): void; onRemove(): void }) {
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
