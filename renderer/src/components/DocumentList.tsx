/**
 * The sidebar's documents as one keyboard stop, following the WAI-ARIA grid pattern: each row has two cells, the
 * document (a button that opens it) and its "More actions" menu button. Only the current row's document button is
 * in the Tab order (a roving tabindex); ArrowDown/ArrowUp/Home/End move between rows, ArrowRight moves to the row's
 * actions (where ArrowDown/ArrowUp open the menu, as a menu button does) and ArrowLeft back; ArrowUp on the first row
 * returns to the search field (`onExitTop`). Enter or Space opens the document (it is a button).
 * What must stay true: exactly one row is the Tab stop while there are rows; when the focused row disappears (archived,
 * deleted) the focus moves to the row that took its place, never to the page's <body>.
 */
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent, type Ref } from "react";
import type { DocumentSummary } from "../../../shared/api.js";
import { DocumentListItem } from "./DocumentListItem.js";

export interface DocumentListHandle {
  /** Focuses the first row, or the current one (the row the person was on, else the open document's, else the first). False when there are no rows. */
  focusRow(which: "first" | "current"): boolean;
}

const clamp = (index: number, length: number) => Math.max(0, Math.min(index, length - 1));

export function DocumentList({
  documents,
  selectedId,
  label,
  onExitTop,
  ref,
}: {
  documents: DocumentSummary[];
  selectedId: string | null;
  label: string;
  onExitTop?: () => void;
  ref?: Ref<DocumentListHandle>;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  /** The current row's index at the last render: where "the row that took its place" is when it goes away. */
  const lastIndex = useRef<number | null>(null);
  /** The row holding the focus (null once focus moved elsewhere on purpose). */
  const focusedRow = useRef<string | null>(null);

  // The document opened elsewhere (palette, New) becomes the current row.
  useEffect(() => {
    if (selectedId !== null) setActiveId(selectedId);
  }, [selectedId]);

  let active = documents.findIndex((d) => d.id === activeId);
  // The current row went away (archived, deleted): the row that took its place.
  if (active < 0 && activeId !== null && lastIndex.current !== null && documents.length > 0) active = clamp(lastIndex.current, documents.length);
  if (active < 0 && documents.length > 0) active = Math.max(documents.findIndex((d) => d.id === selectedId), 0);
  const activeIndex = active;

  const rows = () => [...(listRef.current?.querySelectorAll<HTMLElement>('[role="row"]') ?? [])];
  /** Focuses row `index`'s document button (its rename field while renaming). */
  const focusAt = (index: number): boolean => {
    const all = rows();
    if (all.length === 0) return false;
    const row = all[clamp(index, all.length)];
    (row.querySelector<HTMLElement>(".doc-open") ?? row.querySelector<HTMLElement>("input, button"))?.focus();
    return true;
  };

  useImperativeHandle(ref, () => ({ focusRow: (which) => focusAt(which === "first" ? 0 : activeIndex) }), [activeIndex]);

  useLayoutEffect(() => {
    lastIndex.current = activeIndex >= 0 ? activeIndex : lastIndex.current;
    const gone = focusedRow.current !== null && !documents.some((d) => d.id === focusedRow.current);
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!gone) return;
    focusedRow.current = null;
    if (lost && !focusAt(activeIndex)) onExitTop?.();
  });

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const target = e.target as HTMLElement;
    const row = target.closest<HTMLElement>('[role="row"]');
    if (!row || e.altKey || e.ctrlKey || e.metaKey) return;
    const index = rows().indexOf(row);
    const move = (to: number) => {
      e.preventDefault();
      focusAt(to);
    };
    if (target.classList.contains("doc-open")) {
      switch (e.key) {
        case "ArrowDown":
          return move(index + 1);
        case "ArrowUp":
          if (index === 0 && onExitTop) {
            e.preventDefault();
            return onExitTop();
          }
          return move(index - 1);
        case "Home":
          return move(0);
        case "End":
          return move(rows().length - 1);
        case "ArrowRight":
          e.preventDefault();
          row.querySelector<HTMLElement>(".doc-menu-button")?.focus();
          return;
      }
    } else if (target.classList.contains("doc-menu-button") && e.key === "ArrowLeft") {
      move(index);
    }
  };

  return (
    <ul
      ref={listRef}
      className="doc-list"
      role="grid"
      aria-label={label}
      hidden={documents.length === 0}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const id = (e.target as HTMLElement).closest<HTMLElement>('[role="row"]')?.dataset.rowId ?? null;
        focusedRow.current = id;
        if (id) setActiveId(id);
      }}
      onBlur={(e) => {
        // Focus moved somewhere else on purpose; a removed row's element blurs with no next element, which is kept.
        if (e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) focusedRow.current = null;
      }}
    >
      {documents.map((doc, index) => (
        <DocumentListItem key={doc.id} doc={doc} selected={doc.id === selectedId} tabStop={index === activeIndex} />
      ))}
    </ul>
  );
}
