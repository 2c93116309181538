/**
 * The document title above the editor. Edits are committed through api.renameDocument on Enter or blur; while the
 * person is typing, incoming title changes do not overwrite the field. A document just made with New takes the focus
 * here, title selected, so the person can name it at once.
 */
import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { DocumentDetail } from "../../../shared/api.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { useServices } from "../state/app-services.js";

export function TitleField({ doc }: { doc: DocumentDetail }) {
  const { documents } = useServices();
  const [value, setValue] = useState(doc.title);
  const [editing, setEditing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const justCreated = useStore(documents, (s) => s.justCreated === doc.id);
  useEffect(() => {
    if (!justCreated || !input.current) return;
    input.current.focus();
    input.current.select();
    documents.getState().focusedCreated();
  }, [justCreated, documents]);
  useEffect(() => {
    if (!editing) setValue(doc.title);
  }, [doc.title, editing]);

  const commit = async () => {
    setEditing(false);
    const next = value.trim();
    if (!next) {
      setValue(doc.title);
      return;
    }
    if (next !== doc.title && !(await documents.getState().rename(doc.id, next))) setValue(doc.title);
  };

  return (
    <input
      ref={input}
      className="title-field"
      aria-label="Document title"
      value={value}
      maxLength={MAX_TITLE_CHARS}
      placeholder="Untitled"
      onFocus={() => setEditing(true)}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          (e.target as HTMLInputElement).blur();
        } else if (e.key === "Escape") {
          e.stopPropagation();
          setValue(doc.title);
          setEditing(false);
          requestAnimationFrame(() => (e.target as HTMLInputElement).blur());
        }
      }}
    />
  );
}
