/**
 * The document title above the editor. Edits are committed through api.renameDocument on Enter or blur; while the
 * person is typing, incoming title changes do not overwrite the field. A document just made with New takes the focus
 * here, title selected, so the person can name it at once; Enter then moves on into the body, caret where writing
 * goes on, so a keyboard-only person can name a plan and write it without reaching for the mouse.
 * Escape cancels: the title goes back to what it was and the focus to the body, and that move's blur commits nothing.
 * What must stay true: nothing is cut or reverted silently: reaching MAX_TITLE_CHARS and an emptied title kept as it
 * was are both said in words (a hint the field names as its description, in a live region). A committed title stays
 * shown until the core has answered, then the field shows the core's title: the old one never flashes back meanwhile,
 * and a refusal whose change the core kept in memory (a full disk) keeps the new one.
 */
import { useEffect, useId, useRef, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { useServices } from "../state/app-services.js";
import { emptyTitleWords, TITLE_LIMIT_WORDS } from "./title-words.js";

export function TitleField({ doc }: { doc: DocumentDetail }) {
  const { documents, editor, ui } = useServices();
  const [value, setValue] = useState(doc.title);
  const [editing, setEditing] = useState(false);
  /** What the hint says after an emptied title was kept (cleared by the next edit). */
  const [kept, setKept] = useState<string | null>(null);
  /** The document whose new title was sent to the core: the field shows that title until the answer is in. */
  const [sendingFor, setSendingFor] = useState<string | null>(null);
  const renames = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  /** Set by Escape until the field's next blur, focus or edit: that blur must not rename in the text just cancelled. */
  const cancelled = useRef(false);
  const hintId = useId();
  const justCreated = useStore(documents, (s) => s.justCreated === doc.id);
  useEffect(() => {
    if (!justCreated || !input.current) return;
    input.current.focus();
    input.current.select();
    documents.getState().focusedCreated();
  }, [justCreated, documents]);
  const titleFocusRequests = useStore(ui, (s) => s.titleFocusRequests);
  const seenTitleRequests = useRef(titleFocusRequests);
  useEffect(() => {
    if (titleFocusRequests === seenTitleRequests.current) return;
    seenTitleRequests.current = titleFocusRequests;
    input.current?.focus();
    input.current?.select();
  }, [titleFocusRequests]);
  useEffect(() => {
    if (!editing && sendingFor !== doc.id) setValue(doc.title);
  }, [doc.id, doc.title, editing, sendingFor]);
  // What was said about an emptied title belongs to that plan: another plan opened here starts without it.
  useEffect(() => setKept(null), [doc.id]);

  const commit = async () => {
    setEditing(false);
    if (cancelled.current) {
      cancelled.current = false;
      return;
    }
    const next = value.trim();
    if (!next) {
      setValue(doc.title);
      setKept(emptyTitleWords(doc.title));
      return;
    }
    if (next === doc.title) return;
    setValue(next);
    setSendingFor(doc.id);
    const mine = ++renames.current;
    try {
      // Settles after the store has read the core's title back, whatever the answer; the effect above then shows it.
      await documents.getState().rename(doc.id, next);
    } finally {
      // Only the latest rename lets go: an earlier one answering late must not show the title in between.
      if (renames.current === mine) setSendingFor(null);
    }
  };

  // The browser stops input at maxLength without a word; the hint says why while the field is full.
  const hint = kept ?? (editing && value.length >= MAX_TITLE_CHARS ? TITLE_LIMIT_WORDS : null);

  return (
    <div className="title-box">
      <input
        ref={input}
        className="title-field"
        aria-label="Document title"
        aria-describedby={hintId}
        value={value}
        maxLength={MAX_TITLE_CHARS}
        // An archived plan is read-only (the core refuses its rename); the banner below says to restore it.
        readOnly={doc.archivedAt !== null || doc.teammatesChat === true}
        placeholder="Untitled"
        onFocus={() => {
          cancelled.current = false;
          // Said once, and heard: coming back to the field is the next attempt.
          setKept(null);
          setEditing(true);
        }}
        onChange={(e) => {
          cancelled.current = false;
          setKept(null);
          setValue(e.target.value);
        }}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            // Focusing the body blurs the field, which commits the title; if the body is not editable yet, the
            // field lets go now and the body takes the focus the moment it can.
            editor.getState().focusBody();
            if (document.activeElement === e.currentTarget) e.currentTarget.blur();
          } else if (e.key === "Escape") {
            e.stopPropagation();
            cancelled.current = true;
            setValue(doc.title);
            setEditing(false);
            // Back to the body, as Enter goes: a blur alone would leave the focus nowhere (on the page itself).
            editor.getState().focusBody();
            const field = e.currentTarget;
            requestAnimationFrame(() => {
              if (document.activeElement === field) field.blur();
            });
          }
        }}
      />
      <span id={hintId} className="title-hint" role="status" aria-live="polite">
        {hint}
      </span>
    </div>
  );
}
