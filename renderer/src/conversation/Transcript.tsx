/**
 * A conversation's transcript, shared by the plan's conversation panel and the chat with an agent (issue #27: no
 * second transcript): its entries in causal order with their Markdown rendered, each under its author's own name
 * (people are never merged into one voice), a line before what was new when it was opened, what has not reached the
 * relay yet, sends the link lost (with Retry), the agent's turn as it streams with Stop, a failed or interrupted turn
 * with a Retry for the person who asked (TurnRetry.tsx), and a divider where a processed `/new` began a new session. Shows a page at a time: earlier entries come on request, so a long
 * conversation never renders whole.
 *
 * What must stay true: the agent's entries carry the name the person knows it by (the Planner in a plan, the chat's
 * agent in a chat); nothing before a divider is hidden; the newest entry marks the conversation read only while the
 * window has the focus.
 */
import { useEffect, useRef, useState } from "react";
import { turnStillRunning } from "../../../shared/planner-turns.js";
import type { ConversationEntryView, PlannerState, PlannerTurnProgress } from "../../../shared/api.js";
import type { Author } from "../../../shared/schema/conversation.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { formatWhen } from "../format-time.js";
import { MessageMarkdown } from "./MessageMarkdown.js";
import { HandoffCard } from "./HandoffCard.js";
import { RetryButton, retryableAsked, retryRequest, type RetryTurn } from "./TurnRetry.js";
import type { ConversationView } from "./use-conversation.js";

/** Who answers in this conversation, as the transcript names it. */
export interface TranscriptAgent {
  /** "Planner" in a plan's conversation, the agent's name in a chat. */
  name: string;
  /** The name inside a sentence: "the Planner", "Scout". */
  called: string;
  /** Messages say "to Planner" in a plan (the room is the default there); in a chat every message is to the agent. */
  showAddressee: boolean;
  /** Said while there is nothing in the conversation yet. */
  emptyText: string;
  /** The divider a processed `/new` (a boundary entry) shows: nothing before it is hidden. */
  divider: string;
  /**
   * Every person's message here is this window's person's (an agent chat: only its person posts, and only their
   * windows show it as a chat), so a Retry is theirs from any of their devices; elsewhere only this device's (`mine`).
   */
  onlyThisPerson?: true;
}

export const PLANNER_TRANSCRIPT: TranscriptAgent = {
  name: "Planner",
  called: "the Planner",
  showAddressee: true,
  emptyText: "No messages yet. Write to the people of this plan, or @Planner to ask the Planner.",
  divider: "New Planner session",
};

function authorName(author: Author, agent: string): string {
  if (author.kind === "planner") return agent;
  if (author.kind === "system") return "Chopin";
  return author.name;
}

/**
 * What a person can do about an entry: withdraw their message to the agent that no turn took up yet; send the message
 * a failed or interrupted turn answered again (`asked`).
 */
interface EntryActions {
  withdraw?: () => void;
  retry?: { asked: ConversationEntryView; onRetry: () => void };
}

function Entry({ entry, agent, actions = {} }: { entry: ConversationEntryView; agent: TranscriptAgent; actions?: EntryActions }) {
  const { author } = entry;
  return (
    <li className={`message message-${author.kind}${entry.mine ? " is-mine" : ""}${entry.denial ? " is-denial" : ""}${entry.failed ? " is-failed-turn" : ""}`} data-entry-id={entry.id}>
      <div className="message-meta">
        <span className="message-author">{authorName(author, agent.name)}</span>
        {author.kind === "person" && author.login && <span className="message-login">@{author.login}</span>}
        {agent.showAddressee && entry.to === "planner" && <span className="message-to">to {agent.name}</span>}
        <time className="message-time" dateTime={new Date(entry.at).toISOString()}>
          {formatWhen(entry.at)}
        </time>
      </div>
      <MessageMarkdown text={entry.text} />
      {entry.references && entry.references.length > 0 && <EntryReferences references={entry.references} />}
      {entry.handoff && <HandoffCard handoff={entry.handoff} />}
      {entry.tools && entry.tools.length > 0 && (
        <ul className="turn-tools is-summary" aria-label={`Tools ${agent.called} used`}>
          {entry.tools.map((tool, n) => (
            <li key={n} className={`turn-tool is-${tool.status}`} title={tool.note}>
              {tool.name}
              {tool.status === "failed" ? ": failed" : ""}
            </li>
          ))}
        </ul>
      )}
      {entry.delivery === "pending" && (
        <div className="message-state" title="Written on this device; it goes to the team when the relay is reachable.">
          Not yet delivered
        </div>
      )}
      {entry.failed && (
        <div className="message-state is-failed">
          This turn failed.
          {actions.retry && (
            <>
              {" "}
              <RetryButton asked={actions.retry.asked} onRetry={actions.retry.onRetry} />
            </>
          )}
        </div>
      )}
      {entry.withdrawn && <div className="message-state">Withdrawn before {agent.called} took it up.</div>}
      {actions.withdraw && (
        <div className="message-state">
          Waiting for {agent.called}.{" "}
          <button type="button" className="link-button" onClick={actions.withdraw}>
            Withdraw
          </button>
        </div>
      )}
    </li>
  );
}


/**
 * The entries of one conversation, its paging, dividers, the agent's running turn with Stop, and the sends not yet
 * confirmed. `stop` asks the core to end the running turn (the plan's abortPlannerTurn, the chat's stopAgentChat);
 * `retry` sends a failed or interrupted turn's message again (the plan's postMessage, the chat's sendAgentChat);
 * without it no Retry is offered (nothing can be sent here).
 */
export function Transcript({
  documentId,
  view,
  planner,
  streaming,
  agent,
  stop,
  retry,
}: {
  documentId: string;
  view: ConversationView;
  planner: PlannerState | null;
  streaming: PlannerTurnProgress | null;
  agent: TranscriptAgent;
  stop(): Promise<unknown>;
  retry?: RetryTurn;
}) {
  const { bridge } = useServices();
  // A turn's "begun" mark shows only until its answer arrives; without one it is running, or was interrupted.
  const answered = new Set(view.entries.flatMap((entry) => (entry.turn?.state === "answered" ? [entry.turn.id] : [])));
  // Messages a turn has taken up (begun or answered): no longer withdrawable.
  const taken = new Set(view.entries.flatMap((entry) => (entry.turn ? [entry.turn.id] : [])));
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
      setActionError(null);
    } catch (failure) {
      setActionError(describeError(failure));
    }
  };
  // While a turn runs in the conversation no Retry is offered: its answer may still come, and a retry would wait behind it.
  const turnRunning =
    streaming?.done === false || (planner !== null && view.entries.some((entry) => entry.turn?.state === "started" && !answered.has(entry.turn.id) && turnStillRunning(entry.turn, planner)));
  const retryOf = (turnId: string): EntryActions["retry"] => {
    const asked = retry ? retryableAsked(view.entries, turnId, turnRunning, agent.onlyThisPerson === true) : null;
    return asked && retry ? { asked, onRetry: () => void act(() => retry(retryRequest(asked))) } : undefined;
  };
  const listRef = useRef<HTMLOListElement>(null);
  const last = view.entries.at(-1);

  // What the person can see is read: the newest entry marks the conversation read while the window has the focus.
  useEffect(() => {
    if (!last || !last.unread || !document.hasFocus()) return;
    void bridge.api.markConversationRead(documentId, last.id).catch(() => undefined);
  }, [bridge, documentId, last?.id, last?.unread]);

  // New entries keep the list at its end when the person was reading there.
  const atEnd = useRef(true);
  useEffect(() => {
    const list = listRef.current;
    if (list && atEnd.current) list.scrollTop = list.scrollHeight;
  }, [view.entries.length, view.unconfirmed.length, streaming?.text]);

  return (
    <>
      {(view.error ?? actionError) && (
        <p className="panel-error" role="alert">
          {view.error ?? actionError}
        </p>
      )}
      <ol
        className="message-list"
        ref={listRef}
        role="log"
        aria-label="Messages"
        aria-live="polite"
        onScroll={(event) => {
          const list = event.currentTarget;
          atEnd.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
        }}
      >
        {view.hasMore && (
          <li className="message-more">
            <button type="button" className="button button-small" onClick={() => void view.loadEarlier()}>
              Show earlier messages
            </button>
          </li>
        )}
        {view.loading && view.entries.length === 0 && <li className="message-empty">Loading…</li>}
        {!view.loading && view.entries.length === 0 && view.unconfirmed.length === 0 && <li className="message-empty">{agent.emptyText}</li>}
        {view.entries.map((entry) =>
          entry.boundary ? (
            <li key={entry.id} className="session-divider" role="separator" aria-label={agent.divider} data-entry-id={entry.id}>
              {agent.divider}
            </li>
          ) : entry.turn?.state === "started" ? (
            answered.has(entry.turn.id) ? null : (
              <TurnMark
                key={entry.id}
                entry={entry}
                agent={agent}
                running={planner !== null && turnStillRunning(entry.turn, planner)}
                progress={streaming?.turnId === entry.turn.id ? streaming : null}
                stop={() => void act(stop)}
                retry={retryOf(entry.turn.id)}
              />
            )
          ) : (
            <EntryWithDivider
              key={entry.id}
              entry={entry}
              agent={agent}
              newLine={entry.id === view.firstUnreadId}
              actions={
                entry.mine && entry.to === "planner" && !entry.withdrawn && !taken.has(entry.id)
                  ? { withdraw: () => void act(() => bridge.api.withdrawMessage(documentId, entry.id)) }
                  : entry.failed && entry.turn
                    ? { retry: retryOf(entry.turn.id) }
                    : {}
              }
            />
          ),
        )}
        {view.unconfirmed.map((send) => (
          <li key={send.clientRequestId} className="message message-person is-mine is-unconfirmed">
            <div className="message-meta">
              <span className="message-author">You</span>
              {agent.showAddressee && send.to === "planner" && <span className="message-to">to {agent.name}</span>}
            </div>
            <MessageMarkdown text={send.text} />
            {send.state === "sending" ? (
              <div className="message-state">Sending…</div>
            ) : (
              <div className="message-state is-failed" role="alert">
                Not sent: {send.error}{" "}
                <button type="button" className="link-button" onClick={() => void view.retry(send.clientRequestId)}>
                  Retry
                </button>{" "}
                <button type="button" className="link-button" onClick={() => view.dismiss(send.clientRequestId)}>
                  Discard
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A turn the agent began and has not answered: still running, or interrupted (never run again; its asker may retry). */
function TurnMark({ entry, agent, running, progress, stop, retry }: { entry: ConversationEntryView; agent: TranscriptAgent; running: boolean; progress: PlannerTurnProgress | null; stop: () => void; retry: EntryActions["retry"] }) {
  return (
    <li className={`message message-planner turn-mark${running ? " is-running" : " is-interrupted"}`} data-entry-id={entry.id} aria-busy={running}>
      <div className="message-meta">
        <span className="message-author">{agent.name}</span>
      </div>
      {running && progress && progress.tools.length > 0 && (
        <ul className="turn-tools" aria-label={`${capitalized(agent.called)}'s tool calls`}>
          {progress.tools.map((tool) => (
            <li key={tool.id} className={`turn-tool is-${tool.status}`}>
              {tool.name}: {TOOL_STATUS[tool.status]}
              {tool.note ? ` (${tool.note})` : ""}
            </li>
          ))}
        </ul>
      )}
      {running && progress && progress.text !== "" && <MessageMarkdown text={progress.text} />}
      <div className="message-state">
        {running ? "Working on it…" : `Interrupted: this turn ended before ${agent.called} answered. It is not run again (it may already have changed the plan); ask again if it is still needed.`}
        {running && (
          <>
            {" "}
            <button type="button" className="link-button" onClick={stop}>
              Stop
            </button>
          </>
        )}
        {!running && retry && (
          <>
            {" "}
            <RetryButton asked={retry.asked} onRetry={retry.onRetry} />
          </>
        )}
      </div>
    </li>
  );
}

const TOOL_STATUS: Record<PlannerTurnProgress["tools"][number]["status"], string> = {
  running: "running",
  done: "done",
  failed: "failed",
  refused: "refused by the permission check",
};

/** The documents a message references: each opens on click; one that moved on since says so. */
function EntryReferences({ references }: { references: NonNullable<ConversationEntryView["references"]> }) {
  const { documents } = useServices();
  return (
    <ul className="message-references" aria-label="Referenced documents">
      {references.map((reference) => (
        <li key={reference.documentId}>
          <button type="button" className="link-button" onClick={() => void documents.getState().open(reference.documentId)}>
            #{reference.title}
          </button>
          {reference.changedSince && <span className="reference-changed"> (changed since)</span>}
        </li>
      ))}
    </ul>
  );
}

function EntryWithDivider({ entry, agent, newLine, actions }: { entry: ConversationEntryView; agent: TranscriptAgent; newLine: boolean; actions?: EntryActions }) {
  if (!newLine) return <Entry entry={entry} agent={agent} actions={actions} />;
  return (
    <>
      <li className="message-new-line" aria-label="New messages">
        New
      </li>
      <Entry entry={entry} agent={agent} actions={actions} />
    </>
  );
}
