/**
 * The Agents page (issue #27), shown in the main area while agent chat is on: the team's agent profiles (this
 * device's without a relay), the Planner first, each with Chat (this person's chat with it), a gear to its
 * configuration (also opened from a chat's own gear) and, but for the Planner, Remove after a confirmation, and links to
 * teammates' chats with it (read-only); "Add agent" opens an empty configuration. Where the profiles are kept is said, and so
 * are profiles another app wrote that cannot be read here.
 *
 * What must stay true: the list follows every change the core announces (a teammate's included) while a form is open;
 * a configuration whose agent was removed meanwhile says so instead of saving into nothing; nothing is removed without
 * the person confirming.
 */
import { useEffect, useId, useState } from "react";
import type { AgentChatListing, AgentProfile } from "../../../shared/api.js";
import { Icon } from "../components/Icons.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { AgentProfileForm } from "./AgentProfileForm.js";
import { AgentRow } from "./AgentRow.js";
import { scopeWords, unreadableWords } from "./agent-words.js";
import { useAgents } from "./use-agents.js";
import { useTeammatesChats } from "./use-teammates-chats.js";

type Editing = { kind: "new" } | { kind: "existing"; id: string; name: string } | null;

export function AgentsPage() {
  const { bridge, ui, documents } = useServices();
  const headingId = useId();
  const { list, error } = useAgents();
  const teammatesChats = useTeammatesChats();
  // A teammate's chat is its plan with the conversation beside it (read-only here: DocumentView).
  const openTeammatesChat = (planId: AgentChatListing["planId"]) => {
    ui.getState().toggleConversation(true);
    void documents.getState().open(planId);
  };
  // Opened from a chat's gear: that agent's configuration, once the list has it.
  const [editing, setEditing] = useState<Editing>(() => {
    const id = ui.getState().configuringAgentId;
    return id === null ? null : { kind: "existing", id, name: "This agent" };
  });
  useEffect(() => ui.getState().configureAgent(null), [ui]);
  const [said, setSaid] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const writable = list !== null && !list.teamPending;

  const confirmRemove = (agent: AgentProfile) =>
    ui.getState().askConfirm({
      title: `Remove ${agent.name}?`,
      message: list?.scope === "team" ? `${agent.name} is removed for everyone on your team.` : `${agent.name} is removed from this device.`,
      confirmLabel: "Remove",
      onConfirm: async () => {
        try {
          await bridge.api.removeAgent(agent.id);
          setSaid({ kind: "ok", text: `Removed ${agent.name}.` });
        } catch (failure) {
          setSaid({ kind: "error", text: describeError(failure) });
        }
      },
    });

  const done = (_saved: AgentProfile | null, words: string | null) => {
    setEditing(null);
    setSaid(words ? { kind: "ok", text: words } : null);
  };

  const edited = editing?.kind === "existing" ? list?.agents.find((agent) => agent.id === editing.id) : undefined;
  const unreadable = list ? unreadableWords(list.unreadable) : null;
  return (
    <section className="agents-page" aria-labelledby={headingId}>
      <header className="agents-header">
        <h1 id={headingId}>Agents</h1>
        {editing === null && (
          <button type="button" className="button button-primary" disabled={!writable} onClick={() => setEditing({ kind: "new" })}>
            <Icon name="plus" />
            Add agent
          </button>
        )}
      </header>
      {error && <p className="panel-error" role="alert">{error}</p>}
      {!list && !error && <p className="panel-empty">Loading…</p>}
      {list && <p className="agents-scope">{scopeWords(list)}</p>}
      {unreadable && (
        <p className="field-hint is-warning" role="note">
          {unreadable}
        </p>
      )}
      <p className={said?.kind === "error" ? "panel-error" : "form-message"} role={said?.kind === "error" ? "alert" : "status"}>
        {said?.text ?? ""}
      </p>
      {editing?.kind === "new" && <AgentProfileForm profile={null} onDone={done} />}
      {editing?.kind === "existing" &&
        (edited ? (
          <AgentProfileForm key={edited.id} profile={edited} onDone={done} />
        ) : list === null ? null : (
          <div className="agent-gone">
            <p role="alert">{editing.name} was removed, here or by a teammate, so there is nothing to configure.</p>
            <button type="button" className="button" onClick={() => setEditing(null)}>
              Back to agents
            </button>
          </div>
        ))}
      {list && editing === null && (
        <ul className="agent-list" aria-label="Agent profiles">
          {list.agents.map((agent) => (
            <AgentRow
              key={agent.id}
              agent={agent}
              editable={writable}
              onConfigure={() => {
                setSaid(null);
                setEditing({ kind: "existing", id: agent.id, name: agent.name });
              }}
              onChat={() => ui.getState().openAgentChat(agent.id)}
              teammatesChats={teammatesChats.filter((chat) => chat.agentId === agent.id)}
              onOpenTeammatesChat={(chat) => openTeammatesChat(chat.planId)}
              onRemove={() => confirmRemove(agent)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
