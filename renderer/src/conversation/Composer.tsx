/**
 * Where a message is written, in a plan's conversation and in a chat with an agent alike (issue #27: no second
 * composer): Enter sends, Shift+Enter starts a new line; `/` at the start of an empty draft offers the slash commands
 * (slash-commands.tsx: `/new`). In a plan, "@Planner" in the text, the Planner toggle or a command addresses the
 * Planner, anything else goes to the room, and `#` picks documents the message references (reference-picker.tsx). In a
 * chat every message goes to the chat's agent, and the words stay in the box until the core holds them: a send that
 * failed says why beside a Retry. The draft is the core's where there is a plan to keep it under (`draftId`: read when
 * the plan opens, written once typing pauses and when it is left); a chat never used keeps it only while shown.
 *
 * What must stay true: a message over MAX_MESSAGE_BYTES is not sent (the composer says how much room is left near the
 * limit); the text is cleared only once the send went out or waits as "not sent" in the list, never lost; words put
 * back from outside (`handle.refill`: a chat's discarded send) land only in an empty box, never over what is typed.
 */
import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";
import type { Addressee } from "../../../shared/schema/conversation.js";
import { MAX_MESSAGE_BYTES, MAX_MESSAGE_REFERENCES } from "../../../shared/limits.js";
import { referenceQueryAt, ReferenceOptions, useReferenceCandidates } from "./reference-picker.js";
import { isSlashCommand, newSessionCommand, slashCommandsFor, SlashOptions, type SlashCommand } from "./slash-commands.js";
import { utf8Bytes } from "../../../shared/utf8.js";
import { useServices } from "../state/app-services.js";
import { CONVERSATION_DRAFT_SAVE_DELAY_MS, MESSAGE_ROOM_WARNING_SHARE } from "../limits.js";
import type { SendOutcome } from "./use-conversation.js";
import { pageStorage } from "../state/last-open.js";

/** "@Planner" anywhere as a word addresses the Planner. */
const PLANNER_MENTION = /(^|\s)@planner\b/i;

const PLAN_COMMANDS = [newSessionCommand("the Planner")];
const CHAT_COMMANDS = [newSessionCommand("the agent")];

/** Who a plan's message goes to: the Planner when mentioned, toggled or given a command; else the room. */
export function addresseeOf(text: string, toPlanner: boolean): Addressee {
  return toPlanner || PLANNER_MENTION.test(text) || isSlashCommand(text, PLAN_COMMANDS) ? "planner" : "room";
}

export interface PlanComposing {
  /** Why the Planner is not offered here now (off on this app); a message to it still waits for it. */
  plannerUnavailable: string | null;
  /** The plan is shared with the team: only shared documents can be referenced. */
  shared: boolean;
}

export interface ChatComposing {
  agentName: string;
  /** Why the last send did not reach the core (the words are still in the box, Retry sends them again), or null. */
  unsent: string | null;
}

/** What the composer's owner may ask of it (a chat's view putting a discarded send's words back). */
export interface ComposerHandle {
  /** Nothing but white space is typed. */
  isEmpty(): boolean;
  /** Puts `text` in the box (kept as the draft, focused) when it is empty; false, changing nothing, when it is not. */
  refill(text: string): boolean;
}

export function Composer({
  draftId,
  disabled,
  plan,
  chat,
  onSend,
  handle,
  localDraftKey,
}: {
  /** The plan the core keeps this draft under, or null (then kept under `localDraftKey`, or only while shown). */
  draftId: string | null;
  /**
   * Where a draft with no plan to keep it under yet (a chat before its first send) waits meanwhile: this window's
   * storage, under this key, so leaving the chat and coming back finds it; the core keeps it once there is a plan.
   */
  localDraftKey?: string;
  disabled: string | null;
  /** A plan's conversation (exactly one of `plan` and `chat`). */
  plan?: PlanComposing;
  /** A chat with one agent. */
  chat?: ChatComposing;
  onSend(text: string, to: Addressee, references: string[]): Promise<SendOutcome>;
  handle?: Ref<ComposerHandle>;
}) {
  const { bridge } = useServices();
  const [text, setText] = useState("");
  const [toPlanner, setToPlanner] = useState(false);
  const [references, setReferences] = useState<{ id: string; title: string }[]>([]);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [sending, setSending] = useState(false);
  /** The `#` the person closed the picker at (Escape): not offered again until they type elsewhere. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  /** The draft the person closed the commands at (Escape): not offered again until it changes. */
  const [commandsDismissedFor, setCommandsDismissedFor] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const plannerUnavailable = plan?.plannerUnavailable ?? null;
  const commands: readonly SlashCommand[] = chat ? CHAT_COMMANDS : PLAN_COMMANDS;
  const offeredCommands = text !== commandsDismissedFor ? slashCommandsFor(text, commands) : [];
  const hash = plan ? referenceQueryAt(text, caret) : null;
  const picking = hash !== null && hash.start !== dismissedAt && references.length < MAX_MESSAGE_REFERENCES ? hash : null;
  const candidates = useReferenceCandidates(picking ? picking.query : null, draftId ?? "", plan?.shared ?? false);
  const offered = offeredCommands.length === 0 && picking && candidates.length > 0 ? candidates : [];
  const listed = offeredCommands.length > 0 ? offeredCommands.length : offered.length;
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
    if (draftId !== null || localDraftKey === undefined) return;
    const kept = pageStorage()?.getItem(localDraftKey);
    if (kept && !typed.current) setText(kept);
  }, [draftId, localDraftKey]);

  useEffect(() => {
    if (draftId === null) return;
    typed.current = false;
    setText("");
    setToPlanner(false);
    setReferences([]);
    let live = true;
    void bridge.api.getConversationDraft(draftId).then(
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
  }, [bridge, draftId]);

  const change = (next: string, at = box.current?.selectionStart ?? next.length) => {
    typed.current = true;
    setText(next);
    setCaret(at);
    setActive(0);
    if (draftId === null) {
      if (localDraftKey !== undefined) pageStorage()?.setItem(localDraftKey, next);
      return;
    }
    pendingSave.current = { id: draftId, text: next };
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, CONVERSATION_DRAFT_SAVE_DELAY_MS);
  };

  const typedNow = useRef(text);
  typedNow.current = text;
  useImperativeHandle(handle, () => ({
    isEmpty: () => typedNow.current.trim() === "",
    refill: (words: string) => {
      if (typedNow.current.trim() !== "") return false;
      typedNow.current = words;
      change(words, words.length);
      box.current?.focus();
      return true;
    },
  }));

  const bytes = utf8Bytes(text);
  const tooLong = bytes > MAX_MESSAGE_BYTES;
  const empty = text.trim() === "";
  const to: Addressee = chat ? "planner" : addresseeOf(text, toPlanner && plannerUnavailable === null);

  const pick = (document: { id: string; title: string }) => {
    if (!picking) return;
    const next = text.slice(0, picking.start) + text.slice(caret);
    change(next, picking.start);
    setReferences((list) => (list.some((r) => r.id === document.id) ? list : [...list, { id: document.id, title: document.title }]));
    requestAnimationFrame(() => box.current?.setSelectionRange(picking.start, picking.start));
  };

  const pickCommand = (command: SlashCommand) => {
    change(command.text, command.text.length);
    requestAnimationFrame(() => box.current?.setSelectionRange(command.text.length, command.text.length));
  };

  const submit = async () => {
    if (disabled || empty || tooLong || sending) return;
    const sending_ = text;
    if (chat) {
      // The words stay until the core holds them: a failure leaves them here, with the reason and a Retry.
      setSending(true);
      typed.current = false;
      const outcome = await onSend(sending_, to, []).finally(() => setSending(false));
      if (outcome === "sent" && !typed.current) {
        change("", 0);
        flush();
        typed.current = false;
      }
      return;
    }
    const referenced = references;
    change("", 0);
    setReferences([]);
    flush();
    typed.current = false;
    const outcome = await onSend(sending_, to, referenced.map((r) => r.id));
    // Refused for what it was (nothing kept): the words come back to be fixed, unless something new was typed. A send
    // the link lost waits in the list as "not sent" instead, to be retried as it was.
    if (outcome === "refused" && !typed.current) {
      change(sending_, sending_.length);
      setReferences(referenced);
      typed.current = false;
    }
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (listed > 0 && !event.nativeEvent.isComposing) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((n) => (n + (event.key === "ArrowDown" ? 1 : listed - 1)) % listed);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        const n = Math.min(active, listed - 1);
        if (offeredCommands.length > 0) pickCommand(offeredCommands[n]!);
        else pick(offered[n]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        if (offeredCommands.length > 0) setCommandsDismissedFor(text);
        else setDismissedAt(picking!.start);
        return;
      }
    }
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const placeholder = disabled ?? (chat ? `Message ${chat.agentName}… (/ for commands)` : to === "planner" ? "Ask the Planner…" : plannerUnavailable ? "Write to the room…" : "Write to the room… (@Planner to ask the Planner)");
  return (
    <form
      className="composer"
      aria-busy={sending}
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
      {offeredCommands.length > 0 && <SlashOptions id={listId} options={offeredCommands} active={Math.min(active, listed - 1)} onPick={pickCommand} />}
      {offered.length > 0 && <ReferenceOptions id={listId} options={offered} active={Math.min(active, listed - 1)} onPick={pick} />}
      {chat?.unsent && !sending && (
        <p className="composer-unsent" role="alert">
          Not sent: {chat.unsent}{" "}
          <button type="button" className="link-button" disabled={disabled !== null} onClick={() => void submit()}>
            Retry
          </button>
        </p>
      )}
      <textarea
        ref={box}
        aria-label="Message"
        aria-controls={listed > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={listed > 0 ? `${listId}-${Math.min(active, listed - 1)}` : undefined}
        placeholder={placeholder}
        value={text}
        disabled={disabled !== null}
        readOnly={sending}
        rows={2}
        onChange={(event) => change(event.target.value, event.target.selectionStart)}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={keyDown}
      />
      <div className="composer-row">
        {plan && (
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
        )}
        {plannerUnavailable !== null && to === "planner" && (
          <span className="composer-room" role="status">
            The Planner is off on this app: this message waits until it is on.
          </span>
        )}
        {sending && (
          <span className="composer-room" role="status">
            Sending…
          </span>
        )}
        {bytes > MAX_MESSAGE_BYTES * MESSAGE_ROOM_WARNING_SHARE && (
          <span className={`composer-room${tooLong ? " is-over" : ""}`} role="status">
            {tooLong ? `${bytes - MAX_MESSAGE_BYTES} bytes too long` : `${MAX_MESSAGE_BYTES - bytes} bytes left`}
          </span>
        )}
        <button type="submit" className="button button-small button-primary" disabled={disabled !== null || empty || tooLong || sending}>
          Send
        </button>
      </div>
    </form>
  );
}
