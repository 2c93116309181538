/**
 * The command palette (Mod+K / Mod+P): one filterable list of commands and documents. Arrow keys move, Enter runs,
 * Escape closes. Documents are the live list from the core, searched by title; the last entry searches the text of
 * every plan in the sidebar.
 */
import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { useStore } from "zustand";
import type { DocumentSummary } from "../../../shared/api.js";
import type { AppServices } from "../state/app-services.js";
import { useServices } from "../state/app-services.js";
import { foldForSearch, holdsAllWords, searchWords } from "../../../shared/search-fold.js";
import { Dialog } from "./Dialog.js";
import { askToDelete } from "./DocumentListItem.js";
import { askToShare } from "./use-share-action.js";
import { shortcutHint } from "./shortcuts.js";
import { pickMarkdownFiles, saveTextFile } from "./markdown-file-io.js";

interface PaletteItem {
  id: string;
  label: string;
  hint?: string;
  kind: "command" | "document";
  /** The command puts the focus somewhere itself: closing the palette must not move it to the document list. */
  takesFocus?: boolean;
  run(): void;
}

export function paletteCommands(services: AppServices): PaletteItem[] {
  const { documents, session, ui } = services;
  const selected = documents.getState().selected;
  const hasDoc = selected !== null;
  // With a team relay, new documents are shared; this one stays on this device (it can be shared later).
  const relayConfigured = Boolean(session.getState().settings?.relayUrl);
  const items: PaletteItem[] = [
    { id: "new", label: "New document", hint: shortcutHint("N"), kind: "command", run: () => void documents.getState().create() },
    ...(relayConfigured
      ? [{ id: "new-private", label: "New private document (only on this device)", kind: "command" as const, run: () => void documents.getState().create({ shared: false }) }]
      : []),
    { id: "search", label: "Search documents", hint: shortcutHint("Shift+F"), kind: "command", takesFocus: true, run: () => ui.getState().focusSearch() },
    { id: "settings", label: "Open settings", kind: "command", run: () => ui.getState().openDialog("settings") },
    {
      id: "archived",
      label: documents.getState().showArchived ? "Show live documents" : "Show archived documents",
      kind: "command",
      run: () => documents.getState().setShowArchived(!documents.getState().showArchived),
    },
    {
      id: "import",
      label: "Import Markdown files…",
      kind: "command",
      run: () => void pickMarkdownFiles().then((files) => documents.getState().importFiles(files)),
    },
  ];
  if (hasDoc) {
    items.push(
      { id: "history", label: "Show version history", hint: shortcutHint("Shift+H"), kind: "command", run: () => ui.getState().toggleHistory(true) },
      { id: "outline", label: "Toggle outline", kind: "command", run: () => ui.getState().toggleOutline() },
      { id: "export", label: "Export as Markdown file", kind: "command", run: () => void documents.getState().exportMarkdown(selected.id, saveTextFile) },
    );
  }
  // What the sidebar's row menu does to a document, for the open one, so none of it needs the mouse or the list.
  if (selected && selected.archivedAt === null) {
    items.push(
      { id: "rename", label: "Rename document", kind: "command", takesFocus: true, run: () => ui.getState().focusTitle() },
      { id: "archive", label: "Archive document", kind: "command", run: () => void documents.getState().archive(selected.id) },
    );
    if (!selected.shared && relayConfigured) {
      items.push({ id: "share", label: "Share document with team…", kind: "command", run: () => askToShare(services, selected) });
    }
  } else if (selected) {
    items.push(
      { id: "restore", label: "Restore document", kind: "command", run: () => void documents.getState().restore(selected.id) },
      { id: "delete", label: "Delete document…", kind: "command", run: () => askToDelete(services, selected) },
    );
  }
  return items;
}

/**
 * Every word of the query somewhere in the label, case and accents ignored, as the document search matches; the
 * closest first (a query word equal to a label word, then one starting it), else in the given order. So "archive doc"
 * puts "Archive document" before "Show archived documents".
 */
export function filterPalette(items: PaletteItem[], query: string): PaletteItem[] {
  const words = searchWords(query);
  if (words.length === 0) return items;
  const scored = items
    .map((item, index) => ({ item, index, label: foldForSearch(item.label) }))
    .filter(({ label }) => holdsAllWords(label, words))
    .map((entry) => ({ ...entry, score: closeness(entry.label, words) }));
  return scored.sort((a, b) => b.score - a.score || a.index - b.index).map(({ item }) => item);
}

function closeness(foldedLabel: string, words: readonly string[]): number {
  const labelWords = foldedLabel.split(/\s+/);
  return words.reduce((sum, word) => sum + (labelWords.includes(word) ? 2 : labelWords.some((w) => w.startsWith(word)) ? 1 : 0), 0);
}

export function CommandPalette() {
  const services = useServices();
  const { ui, documents, bridge } = services;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [docs, setDocs] = useState<DocumentSummary[]>([]);
  const selectedId = useStore(documents, (s) => s.selected?.id);

  useEffect(() => {
    bridge.api.listDocuments({}).then(setDocs, () => setDocs(documents.getState().documents));
  }, [bridge, documents]);

  const items = useMemo(() => {
    const docItems: PaletteItem[] = docs.map((d) => ({
      id: `doc:${d.id}`,
      label: d.title || "Untitled",
      hint: d.id === selectedId ? "Open" : d.shared ? "Shared" : "Private",
      kind: "document",
      // The body of the opened plan takes the focus: the editor the palette was opened from is gone by then.
      takesFocus: true,
      run: () => {
        services.editor.getState().focusBody(d.id);
        void documents.getState().open(d.id);
      },
    }));
    // Documents are found here by title; the text of every plan is the sidebar's search, one Enter away.
    const trimmed = query.trim();
    const textSearch: PaletteItem[] = trimmed
      ? [
          {
            id: "search-text",
            label: `Search the text of all plans for “${trimmed}”`,
            kind: "command",
            takesFocus: true,
            run: () => {
              documents.getState().setQuery(trimmed);
              ui.getState().focusSearch();
            },
          },
        ]
      : [];
    return filterPalette([...paletteCommands(services), ...docItems, ...textSearch], query);
  }, [docs, query, services, documents, selectedId]);

  useEffect(() => setActive(0), [query]);
  const close = () => ui.getState().closeDialog();
  const focusTaken = useRef(false);
  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    focusTaken.current = item.takesFocus === true;
    close();
    item.run();
  };
  const listId = "palette-list";
  // The pointer makes a row active only when it really moves over it: the list appearing under a resting pointer
  // (and the mouse events a browser sends for that) must not move the starting row away from the first (UX audit:
  // Ctrl+K, Enter ran the second command). The first position heard is where the pointer rests; a row follows it
  // only from a different one.
  const pointerAt = useRef<{ x: number; y: number } | null>(null);
  const pointerMoved = (e: MouseEvent<HTMLLIElement>): boolean => {
    const last = pointerAt.current;
    pointerAt.current = { x: e.clientX, y: e.clientY };
    return last !== null && (last.x !== e.clientX || last.y !== e.clientY);
  };

  return (
    <Dialog
      title="Command palette"
      onClose={close}
      className="dialog-palette"
      hideTitle
      onFocusLost={() => {
        if (!focusTaken.current) ui.getState().focusDocumentList();
      }}
    >
      <input
        className="palette-input"
        role="combobox"
        aria-label="Search commands and document titles"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={items[active] ? `palette-${items[active].id}` : undefined}
        placeholder="Type a command or a document title…"
        value={query}
        data-autofocus
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((i) => Math.min(items.length - 1, i + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === "Enter") {
            e.preventDefault();
            run(items[active]);
          }
        }}
      />
      <ul className="palette-list" id={listId} role="listbox" aria-label="Commands and documents">
        {items.length === 0 && <li className="palette-empty">Nothing matches.</li>}
        {items.map((item, i) => (
          <li
            key={item.id}
            id={`palette-${item.id}`}
            role="option"
            aria-selected={i === active}
            className={`palette-item${i === active ? " is-active" : ""}`}
            onMouseMove={(e) => {
              if (pointerMoved(e) && i !== active) setActive(i);
            }}
            onMouseDown={(e) => {
              e.preventDefault();
              run(item);
            }}
          >
            <span className="palette-kind">{item.kind === "command" ? "Command" : "Document"}</span>
            <span className="palette-label">{item.label}</span>
            {item.hint && <span className="palette-hint">{item.hint}</span>}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
