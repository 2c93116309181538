/**
 * The document list: search, the Archived filter and New document, with the GitHub account in the footer.
 * Refreshes itself on 'documents-changed'. Each search-focus request (Mod+Shift+F, the palette) focuses and selects
 * the search field.
 */
import { useEffect, useRef } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { AccountIndicator } from "./AccountIndicator.js";
import { DocumentListItem } from "./DocumentListItem.js";
import { Icon } from "./Icons.js";
import { CORE_DOWN_REASON, useCoreReachable } from "./use-core-reachable.js";

export function Sidebar() {
  const { documents, ui } = useServices();
  const list = useStore(documents, (s) => s.documents);
  const query = useStore(documents, (s) => s.query);
  const showArchived = useStore(documents, (s) => s.showArchived);
  const selectedId = useStore(documents, (s) => s.selected?.id ?? null);
  const loading = useStore(documents, (s) => s.loading);
  const searchFocusRequests = useStore(ui, (s) => s.searchFocusRequests);
  const searchRef = useRef<HTMLInputElement>(null);
  const coreReachable = useCoreReachable();
  const store = documents.getState;

  useEffect(() => {
    if (searchFocusRequests === 0) return;
    searchRef.current?.focus();
    searchRef.current?.select();
  }, [searchFocusRequests]);

  return (
    <nav className="sidebar" aria-label="Documents">
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            C
          </span>
          <span className="brand-name">Chopin</span>
        </div>
        <button type="button" className="icon-button" aria-label="Settings" title="Settings" onClick={() => ui.getState().openDialog("settings")}>
          <Icon name="gear" />
        </button>
      </div>
      <button
        type="button"
        className="button button-primary new-doc"
        disabled={!coreReachable}
        title={coreReachable ? undefined : CORE_DOWN_REASON}
        onClick={() => void store().create()}
      >
        <Icon name="plus" />
        New document
      </button>
      <div className="search">
        <Icon name="search" />
        <input
          ref={searchRef}
          type="search"
          role="searchbox"
          aria-label="Search documents"
          aria-keyshortcuts="Control+Shift+F Meta+Shift+F"
          title="Search titles and text (Ctrl+Shift+F)"
          placeholder="Search documents"
          value={query}
          maxLength={MAX_SEARCH_QUERY_CHARS}
          onChange={(e) => store().setQuery(e.target.value)}
        />
      </div>
      <label className="toggle">
        <input type="checkbox" checked={showArchived} onChange={(e) => store().setShowArchived(e.target.checked)} />
        <span>Show archived</span>
      </label>
      <h2 className="sidebar-heading">{showArchived ? "Archived" : "Documents"}</h2>
      {list.length === 0 && !loading ? (
        <p className="sidebar-empty">
          {query ? "No documents match." : showArchived ? "Nothing archived." : "No documents yet. Create one to start planning."}
        </p>
      ) : (
        <ul className="doc-list" aria-label={showArchived ? "Archived documents" : "Documents"}>
          {list.map((doc) => (
            <DocumentListItem key={doc.id} doc={doc} selected={doc.id === selectedId} />
          ))}
        </ul>
      )}
      <div className="sidebar-footer">
        <AccountIndicator />
      </div>
    </nav>
  );
}
