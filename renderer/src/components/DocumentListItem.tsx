/**
 * One document in the sidebar, a row of the DocumentList grid: opens on click, renames on double-click (or from its
 * menu; live documents only, as the palette), and offers archive, restore, delete (archived only, after a
 * confirmation) and share (private only; disabled, saying why, while no team relay is configured). The Private/Shared marker is text, not only colour, so everyone can
 * read it. Only the list's current row is a Tab stop (`tabStop`); the list moves focus between rows.
 */
import { useEffect, useRef, useState } from "react";
import type { DocumentSummary } from "../../../shared/api.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { useServices, type AppServices } from "../state/app-services.js";
import { formatWhen } from "../format-time.js";
import { snippetWords } from "./snippet-words.js";
import { emptyTitleWords } from "./title-words.js";
import { CORE_DOWN_REASON, useCoreReachable } from "./use-core-reachable.js";
import { RowActionsMenu } from "./RowActionsMenu.js";
import { NO_RELAY_REASON, useRelayConfigured } from "./use-relay-configured.js";
import { useShareAction } from "./use-share-action.js";
import { saveTextFile } from "./markdown-file-io.js";

export function DocumentListItem({ doc, selected, tabStop }: { doc: DocumentSummary; selected: boolean; tabStop: boolean }) {
  const { documents, ui } = useServices();
  const [renaming, setRenaming] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);
  /** Set when a rename ended from the keyboard: the row's button takes the focus back from the field that goes. */
  const refocus = useRef(false);
  useEffect(() => {
    if (renaming || !refocus.current) return;
    refocus.current = false;
    openRef.current?.focus();
  }, [renaming]);
  const coreReachable = useCoreReachable();
  const relayConfigured = useRelayConfigured();
  const share = useShareAction();
  const title = doc.title || "Untitled";
  const store = documents.getState;

  return (
    <li className={`doc-item${selected ? " is-selected" : ""}`} role="row" data-row-id={doc.id}>
      <div role="gridcell" className="doc-cell">
        {renaming ? (
          <RenameInput
            initial={doc.title}
            onDone={async (next, viaKey) => {
              refocus.current = viaKey;
              setRenaming(false);
              if (next === null) return;
              // An emptied title is not taken, and the person is told which one stays.
              if (!next.trim()) store().showNotice(emptyTitleWords(title), doc.id);
              else if (next.trim() !== doc.title) await store().rename(doc.id, next.trim());
            }}
          />
        ) : (
          <button
            ref={openRef}
            type="button"
            className="doc-open"
            tabIndex={tabStop ? 0 : -1}
            aria-current={selected ? "page" : undefined}
            onClick={() => void store().open(doc.id)}
            // An archived document takes no rename (the core refuses it): restore it first, as its menu offers.
            onDoubleClick={() => doc.archivedAt === null && setRenaming(true)}
            title={title}
          >
            <span className="doc-title">{title}</span>
            {doc.matchSnippet && <span className="doc-snippet">{snippetWords(doc.matchSnippet)}</span>}
            <span className="doc-meta">
              <span className={`doc-badge ${doc.shared ? "is-shared" : "is-private"}`}>{doc.shared ? "Shared" : "Private"}</span>
              {doc.arriving && (
                // A teammate's plan listed before its content reached this device: opening it waits for it.
                <span className="doc-arriving" title="Its content is on its way from the team relay">
                  Arriving…
                </span>
              )}
              <span className="doc-when">{formatWhen(doc.updatedAt)}</span>
            </span>
          </button>
        )}
      </div>
      <div role="gridcell">
        <RowActionsMenu
          buttonTabIndex={-1}
          label={`More actions for ${title}`}
          menuLabel={`Actions for ${title}`}
          disabledReason={coreReachable ? null : CORE_DOWN_REASON}
          actions={[
            ...(doc.archivedAt === null ? [{ label: "Rename", onSelect: () => setRenaming(true) }] : []),
            ...(!doc.shared && doc.archivedAt === null ? [
                  {
                    label: "Share with team",
                    onSelect: () => share(doc),
                    disabledReason: relayConfigured ? null : NO_RELAY_REASON,
                  },
                ] : []),
            ...(doc.archivedAt === null
              ? [
                  { label: "Archive", onSelect: () => void store().archive(doc.id) },
                  { label: "Export as Markdown", onSelect: () => void store().exportMarkdown(doc.id, saveTextFile) },
                ]
              : [
                  { label: "Restore", onSelect: () => void store().restore(doc.id) },
                  { label: "Export as Markdown", onSelect: () => void store().exportMarkdown(doc.id, saveTextFile) },
                  {
                    label: "Delete…",
                    danger: true,
                    onSelect: () => askToDelete({ documents, ui }, { id: doc.id, title, shared: doc.shared }),
                  },
                ]),
          ]}
        />
      </div>
    </li>
  );
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (title: string | null, viaKey: boolean) => void }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (title: string | null, viaKey = false) => {
    if (done.current) return;
    done.current = true;
    onDone(title, viaKey);
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
        if (e.key === "Enter") finish(value, true);
        if (e.key === "Escape") {
          e.stopPropagation();
          finish(null, true);
        }
      }}
    />
  );
}

/**
 * What deleting does, truthfully: a shared document leaves this device and the team's list, but copies teammates
 * already hold, and the relay's, stay (a CRDT document cannot be taken back from the devices that have it).
 */
/** Asks, then deletes `doc` on confirmation (the row menu's and the palette's way in). */
export function askToDelete(
  { documents, ui }: Pick<AppServices, "documents" | "ui">,
  doc: { id: DocumentSummary["id"]; title: string; shared: boolean },
): void {
  ui.getState().askConfirm({
    title: "Delete document?",
    message: deleteWords(doc.title, doc.shared),
    confirmLabel: "Delete",
    onConfirm: () => documents.getState().remove(doc.id),
  });
}

export function deleteWords(title: string, shared: boolean): string {
  if (!shared) return `“${title}” and its history will be deleted from this device. This cannot be undone.`;
  return (
    `“${title}” will be deleted from this device and removed from the team's list. Teammates who already have it ` +
    "keep their copies, as does the team relay. This cannot be undone."
  );
}
