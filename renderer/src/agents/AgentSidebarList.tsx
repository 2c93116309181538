/**
 * The sidebar's Agents (issue #27), under its Agents entry while agent chat is on: this person's starred agents
 * alphabetically, then their four most recently visited unstarred chats, as one list without a divider (the order is
 * the core's: main/agents/agent-sidebar.ts). A row opens the agent's chat and is marked current while that chat shows;
 * its star toggle stars or unstars it for the person (on all their devices).
 *
 * What must stay true: opening a chat from here records no visit (the chat view does, when it shows the chat:
 * agent-chat/use-chat-visit.ts); a toggled star keeps the keyboard focus on its button when the row moves, and hands
 * it to `onFocusLost` when the row leaves the list (an unstarred agent never visited); a refused star says why.
 */
import { useLayoutEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { AgentSidebarEntry } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { AgentSidebarRow } from "./AgentSidebarRow.js";
import { useAgentSidebar } from "./use-agent-sidebar.js";

export function AgentSidebarList({ onFocusLost }: { onFocusLost(): void }) {
  const { bridge, ui } = useServices();
  const { sidebar, show } = useAgentSidebar();
  const currentId = useStore(ui, (s) => (s.page === "agent-chat" ? s.chatAgentId : null));
  const [refusal, setRefusal] = useState<string | null>(null);
  const stars = useRef(new Map<string, HTMLButtonElement>());
  const refocus = useRef<string | null>(null);

  useLayoutEffect(() => {
    const id = refocus.current;
    if (id === null) return;
    refocus.current = null;
    const active = document.activeElement;
    // Only where the focus was left behind by the move (not where the person has gone since).
    if (active !== null && active !== document.body && active !== stars.current.get(id)) return;
    const star = stars.current.get(id);
    if (star) star.focus();
    else onFocusLost();
  }, [sidebar, onFocusLost]);

  if (!sidebar) return null;
  const toggle = async (agent: AgentSidebarEntry, starred: boolean) => {
    try {
      const answer = await bridge.api.setAgentStarred(agent.id, !starred);
      setRefusal(null);
      refocus.current = agent.id;
      show(answer);
    } catch (failure) {
      setRefusal(describeError(failure));
    }
  };
  const rows = [...sidebar.starred.map((agent) => ({ agent, starred: true })), ...sidebar.recent.map((agent) => ({ agent, starred: false }))];
  return (
    <>
      {rows.length > 0 && (
        <ul className="agent-chat-list" aria-label="Agent chats">
          {rows.map(({ agent, starred }) => (
            <AgentSidebarRow
              key={agent.id}
              ref={(button) => {
                if (button) stars.current.set(agent.id, button);
                else stars.current.delete(agent.id);
              }}
              agent={agent}
              starred={starred}
              current={currentId === agent.id}
              onOpen={() => ui.getState().openAgentChat(agent.id)}
              onToggleStar={() => void toggle(agent, starred)}
            />
          ))}
        </ul>
      )}
      {refusal && (
        <p className="agent-chat-refusal" role="alert">
          {refusal}
        </p>
      )}
    </>
  );
}
