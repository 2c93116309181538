/**
 * The document title above the editor. Edits are committed through api.renameDocument on Enter or blur; while the
 * person is typing, incoming title changes do not overwrite the field.
 */
import { useEffect, useState } from "react";
import type { DocumentDetail } from "../../../shared/api.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { useServices } from "../state/app-services.js";

export function TitleField({ doc }: { doc: DocumentDetail }) {
  const { documents } = useServices();
  const [value, setValue] = useState(doc.title);
  const [editing, setEditing] = useState(false);
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
