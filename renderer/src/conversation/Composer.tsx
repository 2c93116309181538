/**
 * Where a message is written: Enter sends, Shift+Enter starts a new line; "@Planner" in the text or the Planner toggle
 * addresses the Planner, anything else goes to the room; `#` picks documents the message references
 * (reference-picker.tsx). The draft is the core's (kept per plan across switching and restarts): read when the plan
 * opens, written once typing pauses and when the plan is left.
 *
 * What must stay true: a message over MAX_MESSAGE_BYTES is not sent (the composer says how much room is left near the
 * limit); the text is cleared only once the send went out or waits as "not sent" in the list, never lost.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { Addressee } from "../../../shared/schema/conversation.js";
import { MAX_MESSAGE_BYTES, MAX_MESSAGE_REFERENCES } from "../../../shared/limits.js";
import { referenceQueryAt, ReferenceOptions, useReferenceCandidates } from "./reference-picker.js";
import { utf8Bytes } from "../../../shared/utf8.js";
import { useServices } from "../state/app-services.js";
import { CONVERSATION_DRAFT_SAVE_DELAY_MS, MESSAGE_ROOM_WARNING_SHARE } from "../limits.js";
import type { SendOutcome } from "./use-conversation.js";

/** "@Planner" anywhere as a word addresses the Planner. */
const PLANNER_MENTION = /(^|\s)@planner\b/i;

export function addresseeOf(text: string, toPlanner: boolean): Addressee {
  return toPlanner || PLANNER_MENTION.test(text) ? "planner" : "room";
}

export function Composer({
  documentId,
  disabled,
  plannerUnavailable = null,
  sharedPlan = false,
  onSend,
}: {
  documentId: string;
  disabled: string | null;
  /** Why the Planner is not offered here now (off on this app); a message to it still waits for it. */
  plannerUnavailable?: string | null;
  /** The plan is shared with the team: only shared documents can be referenced. */
  sharedPlan?: boolean;
  onSend(text: string, to: Addressee, references: string[]): Promise<SendOutcome>;
}) {
  const { bridge } = useServices();
  const [text, setText] = useState("");
  const [toPlanner, setToPlanner] = useState(false);
  const [references, setReferences] = useState<{ id: string; title: string }[]>([]);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  /** The `#` the person closed the picker at (Escape): not offered again until they type elsewhere. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const hash = referenceQueryAt(text, caret);
  const picking = hash !== null && hash.start !== dismissedAt && references.length < MAX_MESSAGE_REFERENCES ? hash : null;
  const candidates = useReferenceCandidates(picking ? picking.query : null, documentId, sharedPlan);
  const offered = picking && candidates.length > 0 ? candidates : [];
  const typed = useRef(false);
  const pendingSave = useRef<{ id: string; text: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const save = pendingSave.current;
    pendingSave.current = null;
    if (save) void bridge.api.setConversationDraft(save.id, save.text).catch(() => undefined);
  };

  useEffect(() => {
    typed.current = false;
    setText("");
    setToPlanner(false);
    setReferences([]);
    let live = true;
    void bridge.api.getConversationDraft(documentId).then(
      (draft) => {
        // Typing that began before the draft arrived wins over it.
        if (live && !typed.current) setText(draft);
      },
      () => undefined,
    );
    return () => {
      live = false;
      flush();
    };
  }, [bridge, documentId]);

  const change = (next: string, at = box.current?.selectionStart ?? next.length) => {
    typed.current = true;
    setText(next);
    setCaret(at);
    setActive(0);
    pendingSave.current = { id: documentId, text: next };
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, CONVERSATION_DRAFT_SAVE_DELAY_MS);
  };

  const bytes = utf8Bytes(text);
  const tooLong = bytes > MAX_MESSAGE_BYTES;
  const empty = text.trim() === "";
  const to = addresseeOf(text, toPlanner && plannerUnavailable === null);

  const pick = (document: { id: string; title: string }) => {
    if (!picking) return;
    const next = text.slice(0, picking.start) + text.slice(caret);
    change(next, picking.start);
    setReferences((list) => (list.some((r) => r.id === document.id) ? list : [...list, { id: document.id, title: document.title }]));
    requestAnimationFrame(() => box.current?.setSelectionRange(picking.start, picking.start));
  };

  const submit = async () => {
    if (disabled || empty || tooLong) return;
    const sending = text;
    const referenced = references;
    change("", 0);
    setReferences([]);
    flush();
    typed.current = false;
    const outcome = await onSend(sending, to, referenced.map((r) => r.id));
    // Refused for what it was (nothing kept): the words come back to be fixed, unless something new was typed. A send
    // the link lost waits in the list as "not sent" instead, to be retried as it was.
    if (outcome === "refused" && !typed.current) {
      change(sending, sending.length);
      setReferences(referenced);
      typed.current = false;
    }
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (offered.length > 0 && !event.nativeEvent.isComposing) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((n) => (n + (event.key === "ArrowDown" ? 1 : offered.length - 1)) % offered.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(offered[Math.min(active, offered.length - 1)]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setDismissedAt(picking!.start);
        return;
      }
    }
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {references.length > 0 && (
        <ul className="composer-references" aria-label="References">
          {references.map((reference) => (
            <li key={reference.id} className="reference-chip">
              #{reference.title}
              <button type="button" className="icon-button" aria-label={`Remove the reference to ${reference.title}`} onClick={() => setReferences((list) => list.filter((r) => r.id !== reference.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {offered.length > 0 && <ReferenceOptions id={listId} options={offered} active={Math.min(active, offered.length - 1)} onPick={pick} />}
      <textarea
        ref={box}
        aria-label="Message"
        aria-controls={offered.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={offered.length > 0 ? `${listId}-${Math.min(active, offered.length - 1)}` : undefined}
        placeholder={disabled ?? (to === "planner" ? "Ask the Planner…" : plannerUnavailable ? "Write to the room…" : "Write to the room… (@Planner to ask the Planner)")}
        value={text}
        disabled={disabled !== null}
        rows={2}
        onChange={(event) => change(event.target.value, event.target.selectionStart)}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={keyDown}
      />
      <div className="composer-row">
        <button
          type="button"
          className={`button button-small${to === "planner" ? " is-active" : ""}`}
          aria-pressed={toPlanner && plannerUnavailable === null}
          title={plannerUnavailable ?? "Address the Planner (or write @Planner)"}
          onClick={() => setToPlanner(!toPlanner)}
          disabled={disabled !== null || plannerUnavailable !== null}
        >
          To Planner
        </button>
        {plannerUnavailable !== null && to === "planner" && (
          <span className="composer-room" role="status">
            The Planner is off on this app: this message waits until it is on.
          </span>
        )}
        {bytes > MAX_MESSAGE_BYTES * MESSAGE_ROOM_WARNING_SHARE && (
          <span className={`composer-room${tooLong ? " is-over" : ""}`} role="status">
            {tooLong ? `${bytes - MAX_MESSAGE_BYTES} bytes too long` : `${MAX_MESSAGE_BYTES - bytes} bytes left`}
          </span>
        )}
        <button type="submit" className="button button-small button-primary" disabled={disabled !== null || empty || tooLong}>
          Send
        </button>
      </div>
    </form>
  );
}
