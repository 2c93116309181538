/**
 * One agent under the sidebar's Agents entry (issue #27): its avatar and name, opening the person's chat with it, and a
 * star toggle ("Star <name>" / "Unstar <name>", aria-pressed) shown while the row is hovered or holds the keyboard
 * focus, and always while starred.
 *
 * What must stay true: the toggle is always in the page and reachable by Tab (only its opacity changes, never its
 * presence), so a keyboard or screen reader user finds it where a pointer user sees it appear.
 */
import { forwardRef, useState, type FocusEvent } from "react";
import type { AgentSidebarEntry } from "../../../shared/api.js";
import { Icon } from "../components/Icons.js";
import { AgentAvatar } from "./AgentAvatar.js";

export interface AgentSidebarRowProps {
  agent: AgentSidebarEntry;
  starred: boolean;
  /** This agent's chat is what the main area shows. */
  current: boolean;
  onOpen(): void;
  onToggleStar(): void;
}

export const AgentSidebarRow = forwardRef<HTMLButtonElement, AgentSidebarRowProps>(function AgentSidebarRow({ agent, starred, current, onOpen, onToggleStar }, starRef) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const leaving = (event: FocusEvent<HTMLLIElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };
  return (
    <li
      className={current ? "agent-chat-row is-current" : "agent-chat-row"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={leaving}
    >
      <button type="button" className="agent-chat-open" aria-current={current ? "page" : undefined} onClick={onOpen}>
        <AgentAvatar name={agent.name} color={agent.color} size="small" />
        <span className="agent-chat-name">{agent.name}</span>
      </button>
      <button
        ref={starRef}
        type="button"
        className="icon-button agent-star"
        aria-label={`${starred ? "Unstar" : "Star"} ${agent.name}`}
        title={starred ? `Unstar ${agent.name}` : `Star ${agent.name}`}
        aria-pressed={starred}
        data-shown={starred || hovered || focused}
        onClick={onToggleStar}
      >
        <Icon name="star" />
      </button>
    </li>
  );
});
