/**
 * The window: sidebar (navigation), the open document, the Agents page or a chat with an agent (main), the status bar,
 * and at most one dialog. Owns the window-wide shortcuts. When the core refuses this page's secret, the fatal screen replaces everything.
 */
import { useEffect } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { CommandPalette } from "./CommandPalette.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { DocumentView } from "./DocumentView.js";
import { FileDrop } from "./FileDrop.js";
import { Icon } from "./Icons.js";
import { NoticeBanner } from "./NoticeBanner.js";
import { RepositoryPickerDialog } from "./RepositoryPickerDialog.js";
import { SettingsDialog } from "./SettingsDialog.js";
import { Sidebar } from "./Sidebar.js";
import { StatusBar } from "./StatusBar.js";
import { matchShortcut, modKeyName } from "./shortcuts.js";
import { RefusedScreen } from "./FatalScreen.js";
import { CORE_DOWN_REASON, useCoreReachable } from "./use-core-reachable.js";
import { useWindowTitle } from "./window-title.js";
import { AgentsPage } from "../agents/AgentsPage.js";
import { AgentChatView } from "../agent-chat/AgentChatView.js";
import { useExperimentalSettings } from "../state/use-experimental-settings.js";

export function App() {
  const services = useServices();
  const { documents, ui } = services;
  const selected = useStore(documents, (s) => s.selected);
  const dialog = useStore(ui, (s) => s.dialog);
  const refused = useStore(services.connection, (s) => s.core === "refused");
  const coreReachable = useCoreReachable();
  // The Agents page (issue #27) shows only while agent chat is on: turned off, the main area is the documents' again.
  const agentChatOn = useExperimentalSettings().settings?.agentChatOn === true;
  const showAgents = useStore(ui, (s) => s.page === "agents") && agentChatOn;
  // The chat with an agent stays while agent chat is off, to say so without losing the draft (it titles the window).
  const chatAgentId = useStore(ui, (s) => (s.page === "agent-chat" ? s.chatAgentId : null));
  useWindowTitle(chatAgentId !== null ? undefined : showAgents ? "Agents" : selected ? selected.title : null);

  useEffect(() => services.start(), [services]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = matchShortcut(e);
      if (!action) return;
      if (action === "escape") {
        if (ui.getState().escape()) e.preventDefault();
        return;
      }
      e.preventDefault();
      // Behind a dialog (other than the palette, which gives way) or a confirmation, acting would take the focus out
      // of it and leave it open over a page that moved on.
      const { dialog: open, confirm } = ui.getState();
      const blocked = confirm !== null || (open !== null && open !== "palette");
      if (action === "new-document") {
        if (blocked) return;
        if (open === "palette") ui.getState().closeDialog();
        void documents.getState().create();
      } else if (action === "palette") {
        if (!blocked) ui.getState().openDialog("palette");
      }
      else if (action === "history" && documents.getState().selected && !blocked) ui.getState().toggleHistory();
      else if (action === "search" && !blocked) ui.getState().focusSearch();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [documents, ui]);

  // A refused secret never becomes good: the shell would only look alive while nothing can work.
  if (refused) return <RefusedScreen />;

  return (
    <div className="app">
      <FileDrop />
      <Sidebar />
      <main className="main" aria-label={chatAgentId !== null ? "Agent chat" : showAgents ? "Agents" : selected ? selected.title || "Untitled" : "No document open"}>
        <NoticeBanner />
        {chatAgentId !== null ? (
          <AgentChatView key={chatAgentId} agentId={chatAgentId} />
        ) : showAgents ? (
          <AgentsPage />
        ) : selected ? (
          <DocumentView key={selected.id} doc={selected} />
        ) : (
          <div className="empty-state">
            <div className="empty-card">
              <Icon name="doc" size={28} />
              <h1>Plan together, offline first</h1>
              <p>Open a document from the list, or start a new one. Everything you write is saved on this device as you type.</p>
              <div className="empty-actions">
                <button
                  type="button"
                  className="button button-primary"
                  disabled={!coreReachable}
                  title={coreReachable ? undefined : CORE_DOWN_REASON}
                  onClick={() => void documents.getState().create()}
                >
                  Start a new plan
                </button>
                {/* It opens the command palette (plans by title, and commands): its name says so; the keys are a hint,
                    announced as the shortcut rather than read into the name. */}
                <button
                  type="button"
                  className="button"
                  aria-keyshortcuts={modKeyName() === "Cmd" ? "Meta+K" : "Control+K"}
                  onClick={() => ui.getState().openDialog("palette")}
                >
                  Find a plan or command{" "}
                  <span aria-hidden="true">
                    <kbd>{modKeyName()}</kbd> <kbd>K</kbd>
                  </span>
                </button>
              </div>
            </div>
          </div>
        )}
      </main>
      <StatusBar />
      {dialog === "settings" && <SettingsDialog />}
      {dialog === "palette" && <CommandPalette />}
      {dialog === "repository" && selected && <RepositoryPickerDialog doc={selected} />}
      <ConfirmDialog />
    </div>
  );
}
