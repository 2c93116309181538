/**
 * This person's chat with one agent (issue #27), in the main area for the "agent-chat" page: a header with the agent's
 * avatar, name, the chat's state and a gear to its configuration on the Agents page; the chat's transcript and the
 * composer, the very parts a plan's conversation uses (conversation/Transcript.tsx, conversation/Composer.tsx: no
 * second transcript, composer or run controller). A chat never used shows an empty first conversation and makes
 * nothing: the view only reads (readAgentChat) until the first send begins the chat. The window is titled "Chat with
 * <name>".
 *
 * What must stay true: while agent chat is off here the chat gives way to a sentence saying so, and the draft stays in
 * the composer (the view stays mounted), to be sent once it is on again; a failed send keeps its words, says why and
 * offers a Retry carrying the same clientRequestId (use-agent-chat.ts); a send discarded from the outbox puts its
 * words back into the composer when it is empty (OutboxMessages.tsx asks first when it is not).
 */
import { useId, useRef, type RefObject } from "react";
import type { AgentProfile } from "../../../shared/api.js";
import { AgentAvatar } from "../agents/AgentAvatar.js";
import { useAgents } from "../agents/use-agents.js";
import { Icon } from "../components/Icons.js";
import { useWindowTitle } from "../components/window-title.js";
import { Composer, type ComposerHandle } from "../conversation/Composer.js";
import { useServices } from "../state/app-services.js";
import { useExperimentalSettings } from "../state/use-experimental-settings.js";
import { ChatTranscript } from "./ChatTranscript.js";
import { HandoffAction } from "./HandoffAction.js";
import { OutboxMessages } from "./OutboxMessages.js";
import { useAgentChat, type AgentChatModel } from "./use-agent-chat.js";
import { useRecordChatVisit } from "./use-chat-visit.js";

/** This window's storage key of a chat's draft before its first send (then the core keeps it under the chat's plan). */
export const AGENT_CHAT_DRAFT_KEY_PREFIX = "chopin.agentChatDraft:";

/** Said in place of the chat while agent chat is off on this app. */
export const AGENT_CHAT_OFF = "Agent chat is turned off on this app: turn it on in Settings → Experimental to go on with this chat. Your draft is kept here.";

/** The chat's state in words: idle and waiting for the person, or the agent answering (or about to). */
function stateWords(chat: AgentChatModel["chat"], name: string): string {
  if (chat === undefined) return "";
  if (chat === null) return "No messages yet";
  return chat.state === "active" ? `Active: ${name} is answering` : "Waiting for you";
}

export function AgentChatView({ agentId }: { agentId: string }) {
  const { ui } = useServices();
  const headingId = useId();
  const settings = useExperimentalSettings().settings;
  const off = settings !== null && !settings.agentChatOn;
  const agents = useAgents();
  const agent: AgentProfile | undefined = agents.list?.agents.find((a) => a.id === agentId);
  const name = agent?.name ?? "";
  const model = useAgentChat(agentId, settings?.agentChatOn === true);
  const composer = useRef<ComposerHandle>(null);
  const gone = agents.list !== null && !agent;
  // Showing the chat is a visit: the sidebar's recents are made of these only.
  useRecordChatVisit(settings?.agentChatOn === true ? agentId : null);
  useWindowTitle(name ? `Chat with ${name}` : "Chat");

  const disabled = off ? "Agent chat is turned off on this app." : gone ? "This agent was removed, so this chat takes no new messages." : null;
  return (
    <section className="agent-chat" aria-labelledby={headingId}>
      <header className="agent-chat-header">
        {agent && <AgentAvatar name={agent.name} color={agent.color} size="large" />}
        <div className="agent-chat-title">
          <h1 id={headingId}>{name ? `Chat with ${name}` : "Chat"}</h1>
          {!off && (
            <span className="agent-chat-state" role="status" data-state={model.chat?.state ?? "new"}>
              {stateWords(model.chat, name)}
            </span>
          )}
        </div>
        <div className="agent-chat-actions">
          {/* The person hands the drafted plan off (a chat begun and taking messages); the agent can, with hand_off_plan. */}
          {model.planId !== null && <HandoffAction agentId={agentId} disabled={disabled !== null} />}
          {agent && (
            <button type="button" className="icon-button" aria-label={`Configure ${agent.name}`} title={`Configure ${agent.name}`} onClick={() => ui.getState().configureAgent(agentId)}>
              <Icon name="gear" />
            </button>
          )}
        </div>
      </header>
      {off ? (
        <p className="agent-chat-off" role="alert">
          {AGENT_CHAT_OFF}
        </p>
      ) : (
        <ChatBody model={model} name={name} gone={gone} color={agent?.color} composer={composer} />
      )}
      <Composer handle={composer} draftId={model.planId} localDraftKey={`${AGENT_CHAT_DRAFT_KEY_PREFIX}${agentId}`} disabled={disabled} chat={{ agentName: name || "the agent", unsent: model.unsent }} onSend={(text) => model.send(text)} />
    </section>
  );
}

function ChatBody({ model, name, gone, color, composer }: { model: AgentChatModel; name: string; gone: boolean; color: AgentProfile["color"] | undefined; composer: RefObject<ComposerHandle | null> }) {
  return (
    <>
      {gone && (
        <p className="panel-error" role="alert">
          This agent was removed, here or by a teammate: its chat is kept, and takes no new messages.
        </p>
      )}
      {model.error && (
        <p className="panel-error" role="alert">
          {model.error}
        </p>
      )}
      {model.planId !== null ? (
        <ChatTranscript planId={model.planId} name={name} stop={model.stop} retry={gone ? undefined : model.retryTurn} />
      ) : model.chat === null || (model.chat !== undefined && model.chat.planId === null) ? (
        <div className="agent-chat-first">
          {color && <AgentAvatar name={name} color={color} size="large" />}
          <p className="agent-chat-first-lead">This is the start of your conversation with {name}.</p>
          <p>Nothing is kept until you send your first message. Type / for commands.</p>
        </div>
      ) : (
        !model.error && <p className="panel-empty">Loading…</p>
      )}
      {model.chat && (
        <OutboxMessages
          messages={model.chat.outbox}
          retry={(message) => void model.resend(message)}
          wordsGoBack={() => composer.current?.isEmpty() ?? false}
          discard={async (message) => {
            // Nothing typed is lost: the words go back only into an empty composer (refill refuses otherwise).
            if (await model.discard(message)) composer.current?.refill(message.text);
          }}
        />
      )}
      {model.discardRefusal && (
        <p className="panel-error" role="alert">
          Not discarded: {model.discardRefusal}
        </p>
      )}
    </>
  );
}
