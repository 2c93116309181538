/**
 * An agent's avatar: its initial on its colour (each colour has a shade per theme: --agent-<colour> in styles.css, text
 * at 4.5:1 or more on it). Decorative: the agent's name is always beside it, so it is hidden from screen readers.
 */
import type { AgentColor } from "../../../shared/schema/agent-profiles.js";

export function AgentAvatar({ name, color, size = "normal" }: { name: string; color: AgentColor; size?: "small" | "normal" | "large" }) {
  const initial = [...name.trim()][0]?.toUpperCase() ?? "?";
  return (
    <span className={size === "normal" ? "agent-avatar" : `agent-avatar is-${size}`} data-color={color} aria-hidden="true">
      {initial}
    </span>
  );
}
