/**
 * The document list: search, the Archived filter and New document, with the GitHub account in the footer; while agent
 * chat is on (Settings → Experimental, issue #27), an Agents entry above them opens the Agents page, and under it the
 * person's starred agents and recent chats (AgentSidebarList).
 * Refreshes itself on 'documents-changed'. Each search-focus request (Mod+Shift+F, the palette) focuses and selects
 * the search field; ArrowDown in the field moves into the list (DocumentList), ArrowUp on its first row back. Each
 * list-focus request (ui.focusDocumentList: a dialog's opener is gone) focuses the list's current row, or the search
 * field when there are no rows.
 */
import { PrivateDocumentsHint } from "./PrivateDocumentsHint.js";
import { useEffect, useRef } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { AccountIndicator } from "./AccountIndicator.js";
import { DocumentList, type DocumentListHandle } from "./DocumentList.js";
import { Icon } from "./Icons.js";
import { CORE_DOWN_REASON, useCoreReachable } from "./use-core-reachable.js";
import { shortcutHint } from "./shortcuts.js";
import { useExperimentalSettings } from "../state/use-experimental-settings.js";
import { AgentSidebarList } from "../agents/AgentSidebarList.js";

export function Sidebar() {
  const { documents, ui } = useServices();
  const list = useStore(documents, (s) => s.documents);
  const query = useStore(documents, (s) => s.query);
  const showArchived = useStore(documents, (s) => s.showArchived);
  const selectedId = useStore(documents, (s) => s.selected?.id ?? null);
  const loading = useStore(documents, (s) => s.loading);
  const archivedOutOfSight = useStore(documents, (s) => s.archivedOutOfSight);
  const searchFocusRequests = useStore(ui, (s) => s.searchFocusRequests);
  const listFocusRequests = useStore(ui, (s) => s.listFocusRequests);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<DocumentListHandle>(null);
  const agentsRef = useRef<HTMLButtonElement>(null);
  const coreReachable = useCoreReachable();
  const agentChatOn = useExperimentalSettings().settings?.agentChatOn === true;
  const onAgentsPage = useStore(ui, (s) => s.page === "agents") && agentChatOn;
  const store = documents.getState;

  useEffect(() => {
    if (searchFocusRequests === 0) return;
    searchRef.current?.focus();
    searchRef.current?.select();
  }, [searchFocusRequests]);

  useEffect(() => {
    if (listFocusRequests === 0) return;
    if (!listRef.current?.focusRow("current")) searchRef.current?.focus();
  }, [listFocusRequests]);

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
      {agentChatOn && (
        <button
          ref={agentsRef}
          type="button"
          className={onAgentsPage ? "sidebar-link is-current" : "sidebar-link"}
          aria-current={onAgentsPage ? "page" : undefined}
          onClick={() => ui.getState().showPage("agents")}
        >
          <Icon name="agents" />
          Agents
        </button>
      )}
      {agentChatOn && <AgentSidebarList onFocusLost={() => agentsRef.current?.focus()} />}
      <div className="search">
        <Icon name="search" />
        <input
          ref={searchRef}
          type="search"
          role="searchbox"
          aria-label="Search documents"
          aria-keyshortcuts="Control+Shift+F Meta+Shift+F"
          title={`Search titles and text (${shortcutHint("Shift+F")})`}
          placeholder="Search documents"
          value={query}
          maxLength={MAX_SEARCH_QUERY_CHARS}
          onChange={(e) => store().setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown" && listRef.current?.focusRow("first")) e.preventDefault();
          }}
        />
      </div>
      <label className="toggle">
        <input type="checkbox" checked={showArchived} onChange={(e) => store().setShowArchived(e.target.checked)} />
        <span>Show archived</span>
      </label>
      <PrivateDocumentsHint />
      <h2 className="sidebar-heading">{showArchived ? "Archived" : "Documents"}</h2>
      {/* What a search found, for screen readers (the list itself changes silently). */}
      <div className="visually-hidden" role="status" data-testid="search-result-count">
        {searchResultWords(query, list.length, loading)}
      </div>
      {list.length === 0 && !loading && (
        <p className="sidebar-empty">
          {emptyListWords(query, showArchived, archivedOutOfSight)}
        </p>
      )}
      {/* Mounted while empty too, so a focused last row that goes away hands the focus on (to the search field). */}
      <DocumentList
        ref={listRef}
        documents={list}
        selectedId={selectedId}
        label={showArchived ? "Archived documents" : "Documents"}
        onExitTop={() => searchRef.current?.focus()}
      />
      <div className="sidebar-footer">
        <AccountIndicator />
      </div>
    </nav>
  );
}

/** "3 documents match “plan”", or nothing without a query or while the search runs. */
export function searchResultWords(query: string, count: number, loading: boolean): string {
  const trimmed = query.trim();
  if (!trimmed || loading) return "";
  if (count === 0) return `No documents match “${trimmed}”`;
  return `${count} ${count === 1 ? "document matches" : "documents match"} “${trimmed}”`;
}

/**
 * What an empty list says. With no live documents (or none matching) but archived ones, it says where they are: "No
 * documents yet" and "No documents match" read as if the archived plans were gone (UX audit).
 */
export function emptyListWords(query: string, showArchived: boolean, archivedOutOfSight: number): string {
  if (query && !showArchived && archivedOutOfSight > 0) {
    const which = archivedOutOfSight === 1 ? "1 archived document does" : `${archivedOutOfSight} archived documents do`;
    return `No documents in use match. ${which}, under “Show archived”.`;
  }
  if (query) return "No documents match.";
  if (showArchived) return "Nothing archived.";
  if (archivedOutOfSight > 0) {
    const which = archivedOutOfSight === 1 ? "1 archived document is" : `${archivedOutOfSight} archived documents are`;
    return `No documents in use. ${which} under “Show archived”.`;
  }
  return "No documents yet. Create one to start planning.";
}
