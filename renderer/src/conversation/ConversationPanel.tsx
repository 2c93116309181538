/**
 * The open plan's conversation beside the editor (issue #25): its entries in causal order with their Markdown
 * rendered, each under its author's own name (people are never merged into one voice), a line before what was new
 * when the plan was opened, what has not reached the relay yet, and the composer. Shows a page at a time: earlier
 * entries come on request, so a long conversation never renders whole.
 */
import { turnStillRunning } from "../../../shared/planner-turns.js";
import { useEffect, useRef, useState } from "react";
import type { ConversationEntryView, PlannerTurnProgress } from "../../../shared/api.js";
import type { Author } from "../../../shared/schema/conversation.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { formatWhen } from "../format-time.js";
import { Composer } from "./Composer.js";
import { MessageMarkdown } from "./MessageMarkdown.js";
import { PlannerStatus, plannerUnavailable } from "./PlannerStatus.js";
import { usePlannerState } from "./use-planner-state.js";
import { usePlannerTurn } from "./use-planner-turn.js";
import { useConversation } from "./use-conversation.js";

function authorName(author: Author): string {
  if (author.kind === "planner") return "Planner";
  if (author.kind === "system") return "Chopin";
  return author.name;
}

/** What a person can do to one of their entries: withdraw a message to the Planner that no turn took up yet. */
interface EntryActions {
  withdraw?: () => void;
}

function Entry({ entry, actions = {} }: { entry: ConversationEntryView; actions?: EntryActions }) {
  const { author } = entry;
  return (
    <li className={`message message-${author.kind}${entry.mine ? " is-mine" : ""}${entry.denial ? " is-denial" : ""}`} data-entry-id={entry.id}>
      <div className="message-meta">
        <span className="message-author">{authorName(author)}</span>
        {author.kind === "person" && author.login && <span className="message-login">@{author.login}</span>}
        {entry.to === "planner" && <span className="message-to">to Planner</span>}
        <time className="message-time" dateTime={new Date(entry.at).toISOString()}>
          {formatWhen(entry.at)}
        </time>
      </div>
      <MessageMarkdown text={entry.text} />
      {entry.references && entry.references.length > 0 && <EntryReferences references={entry.references} />}
      {entry.tools && entry.tools.length > 0 && (
        <ul className="turn-tools is-summary" aria-label="Tools the Planner used">
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
      {entry.withdrawn && <div className="message-state">Withdrawn before the Planner took it up.</div>}
      {actions.withdraw && (
        <div className="message-state">
          Waiting for the Planner.{" "}
          <button type="button" className="link-button" onClick={actions.withdraw}>
            Withdraw
          </button>
        </div>
      )}
    </li>
  );
}

export function ConversationPanel({ documentId, archived, shared = false }: { documentId: string; archived: boolean; shared?: boolean }) {
  const { bridge } = useServices();
  const view = useConversation(documentId);
  const planner = usePlannerState(documentId);
  const streaming = usePlannerTurn(documentId);
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
  }, [view.entries.length, view.unconfirmed.length]);

  return (
    <section className="side-panel conversation" aria-labelledby="conversation-heading">
      <div className="panel-heading-row">
        <h2 id="conversation-heading" className="panel-heading">
          Conversation
        </h2>
      </div>
      <PlannerStatus view={planner} />
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
        {!view.loading && view.entries.length === 0 && view.unconfirmed.length === 0 && (
          <li className="message-empty">No messages yet. Write to the people of this plan, or @Planner to ask the Planner.</li>
        )}
        {view.entries.map((entry) =>
          entry.boundary ? (
            <li key={entry.id} className="session-divider" role="separator" aria-label="New Planner session">
              New Planner session
            </li>
          ) : entry.turn?.state === "started" ? (
            answered.has(entry.turn.id) ? null : (
              <TurnMark
                key={entry.id}
                entry={entry}
                running={planner.state !== null && turnStillRunning(entry.turn, planner.state)}
                progress={streaming?.turnId === entry.turn.id ? streaming : null}
                stop={() => void act(() => bridge.api.abortPlannerTurn(documentId))}
              />
            )
          ) : (
            <EntryWithDivider
              key={entry.id}
              entry={entry}
              newLine={entry.id === view.firstUnreadId}
              actions={entry.mine && entry.to === "planner" && !entry.withdrawn && !taken.has(entry.id) ? { withdraw: () => void act(() => bridge.api.withdrawMessage(documentId, entry.id)) } : {}}
            />
          ),
        )}
        {view.unconfirmed.map((send) => (
          <li key={send.clientRequestId} className="message message-person is-mine is-unconfirmed">
            <div className="message-meta">
              <span className="message-author">You</span>
              {send.to === "planner" && <span className="message-to">to Planner</span>}
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
      <Composer documentId={documentId} disabled={archived ? "This plan is archived: restore it to write here." : null} onSend={view.send} plannerUnavailable={plannerUnavailable(planner.state)} sharedPlan={shared} />
    </section>
  );
}

/** A turn the Planner began and has not answered: still running, or interrupted (never run again). */
function TurnMark({ entry, running, progress, stop }: { entry: ConversationEntryView; running: boolean; progress: PlannerTurnProgress | null; stop: () => void }) {
  return (
    <li className={`message message-planner turn-mark${running ? " is-running" : " is-interrupted"}`} data-entry-id={entry.id} aria-busy={running}>
      <div className="message-meta">
        <span className="message-author">Planner</span>
      </div>
      {running && progress && progress.tools.length > 0 && (
        <ul className="turn-tools" aria-label="The Planner's tool calls">
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
        {running ? "Working on it…" : "Interrupted: this turn ended before the Planner answered. It is not run again (it may already have changed the plan); ask again if it is still needed."}
        {running && (
          <>
            {" "}
            <button type="button" className="link-button" onClick={stop}>
              Stop
            </button>
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

function EntryWithDivider({ entry, newLine, actions }: { entry: ConversationEntryView; newLine: boolean; actions?: EntryActions }) {
  if (!newLine) return <Entry entry={entry} actions={actions} />;
  return (
    <>
      <li className="message-new-line" aria-label="New messages">
        New
      </li>
      <Entry entry={entry} actions={actions} />
    </>
  );
}
