/**
 * One document in the sidebar: opens on click, renames on double-click (or from its menu), and offers archive,
 * restore, delete (archived only, after a confirmation) and share (private only). The Private/Shared marker is text,
 * not only colour, so everyone can read it.
 */
import { useEffect, useRef, useState } from "react";
import type { DocumentSummary } from "../../../shared/api.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { useServices } from "../state/app-services.js";
import { formatWhen } from "../format-time.js";
import { Icon } from "./Icons.js";

export function DocumentListItem({ doc, selected }: { doc: DocumentSummary; selected: boolean }) {
  const { documents, ui } = useServices();
  const [renaming, setRenaming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const title = doc.title || "Untitled";

  useEffect(() => {
    if (!menuOpen) return;
    const close = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [menuOpen]);

  const act = (fn: () => void) => () => {
    setMenuOpen(false);
    fn();
  };
  const store = documents.getState;

  return (
    <li className={`doc-item${selected ? " is-selected" : ""}`}>
      {renaming ? (
        <RenameInput
          initial={doc.title}
          onDone={async (next) => {
            setRenaming(false);
            if (next !== null && next.trim() && next !== doc.title) await store().rename(doc.id, next.trim());
          }}
        />
      ) : (
        <button
          type="button"
          className="doc-open"
          aria-current={selected ? "page" : undefined}
          onClick={() => void store().open(doc.id)}
          onDoubleClick={() => setRenaming(true)}
          title={title}
        >
          <span className="doc-title">{title}</span>
          <span className="doc-meta">
            <span className={`doc-badge ${doc.shared ? "is-shared" : "is-private"}`}>{doc.shared ? "Shared" : "Private"}</span>
            <span className="doc-when">{formatWhen(doc.updatedAt)}</span>
          </span>
        </button>
      )}
      <div className="doc-menu-anchor" ref={menuRef}>
        <button
          type="button"
          className="icon-button doc-menu-button"
          aria-label={`More actions for ${title}`}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <Icon name="more" />
        </button>
        {menuOpen && (
          <div className="menu" role="menu" aria-label={`Actions for ${title}`} onKeyDown={(e) => e.key === "Escape" && setMenuOpen(false)}>
            <button type="button" role="menuitem" onClick={act(() => setRenaming(true))}>
              Rename
            </button>
            {!doc.shared && doc.archivedAt === null && (
              <button type="button" role="menuitem" onClick={act(() => void store().share(doc.id))}>
                Share with team
              </button>
            )}
            {doc.archivedAt === null ? (
              <button type="button" role="menuitem" onClick={act(() => void store().archive(doc.id))}>
                Archive
              </button>
            ) : (
              <>
                <button type="button" role="menuitem" onClick={act(() => void store().restore(doc.id))}>
                  Restore
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="is-danger"
                  onClick={act(() =>
                    ui.getState().askConfirm({
                      title: "Delete document?",
                      message: `“${title}” and its history will be deleted from this device${doc.shared ? " and the team relay" : ""}. This cannot be undone.`,
                      confirmLabel: "Delete",
                      onConfirm: () => store().remove(doc.id),
                    }),
                  )}
                >
                  Delete…
                </button>
              </>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (title: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(title);
  };
  return (
    <input
      className="doc-rename"
      aria-label="Rename document"
      autoFocus
      value={value}
      maxLength={MAX_TITLE_CHARS}
      onChange={(e) => setValue(e.target.value)}
      onFocus={(e) => e.target.select()}
      onBlur={() => finish(value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") finish(value);
        if (e.key === "Escape") {
          e.stopPropagation();
          finish(null);
        }
      }}
    />
  );
}
