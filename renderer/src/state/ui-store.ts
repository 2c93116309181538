/**
 * Which panels and dialogs are open. One dialog at a time; Escape closes the top one. The version being viewed
 * belongs to one document and is dropped when another document opens.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { DocumentId, VersionContent } from "../../../shared/api.js";

export type DialogName = "settings" | "palette" | "repository";

/**
 * What the main area shows: the open document (or the empty state), the Agents page, or this person's chat with one
 * agent (issue #27, both only while agent chat is on).
 */
export type PageName = "documents" | "agents" | "agent-chat";

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  /** A destructive action (red confirm button); default true. */
  danger?: boolean;
  onConfirm: () => void | Promise<void>;
  /**
   * Where the focus goes when the confirmed action removed the control that asked (default: the document list, as
   * for any dialog). An action with its own place for the focus afterwards says so here, so confirming it ends
   * where doing it without the question does.
   */
  onFocusLost?: () => void;
}

export interface ViewedVersion {
  documentId: DocumentId;
  content: VersionContent;
  at: number;
  previousMarkdown?: string | null;
  previousId?: string | null;
}

export interface UiState {
  /** Back to "documents" whenever a document is opened (app-services.ts). */
  page: PageName;
  showPage(page: PageName): void;
  /** The agent whose chat the "agent-chat" page shows; kept when another page shows, so coming back returns to it. */
  chatAgentId: string | null;
  /** Shows this person's chat with the agent (the Agents page's Chat action, the sidebar's Agents). */
  openAgentChat(agentId: string): void;
  /** The agent whose configuration the Agents page opens with (the chat's gear), taken by the page once shown. */
  configuringAgentId: string | null;
  /** Shows the Agents page with this agent's configuration open. */
  configureAgent(agentId: string | null): void;
  dialog: DialogName | null;
  confirm: ConfirmRequest | null;
  outlineOpen: boolean;
  historyOpen: boolean;
  /** The open plan's conversation beside the editor. */
  conversationOpen: boolean;
  /**
   * Set when a person opens the history panel (its button, Mod+Shift+H, the palette), cleared once the panel took the
   * focus: the panel is shown again for each plan opened meanwhile, and that must not pull the focus to it.
   */
  historyFocusPending: boolean;
  historyFocused(): void;
  /**
   * The version shown read-only. `previousMarkdown` is the version before it (`previousId`; null for the first), so
   * the view can mark what this one changed. Whether it is the latest, and who wrote after it, are not kept here:
   * they follow the versions list as it is read again (use-version-facts.ts).
   */
  viewingVersion: ViewedVersion | null;
  /** Counts requests to focus the sidebar search field (Mod+Shift+F, the palette); the sidebar acts on each change. */
  searchFocusRequests: number;
  focusSearch(): void;
  /**
   * Counts requests to put the focus on the document list's current row (or, with no rows, the search field): where
   * focus goes when what had it is gone (a dialog whose opener was deleted). The sidebar acts on each change.
   */
  listFocusRequests: number;
  focusDocumentList(): void;
  /** Counts requests to put the focus in the open document's title field, text selected (the palette's "Rename"). */
  titleFocusRequests: number;
  focusTitle(): void;
  /**
   * Counts requests to put the focus on the history panel's row of the version last viewed (else the panel's
   * heading): where a restore leaves it, asked first or not. The panel acts on each change.
   */
  versionFocusRequests: number;
  focusViewedVersion(): void;
  /**
   * Settings opened for joining a team ("Join a team…") starts with the focus in the relay address; opened from the
   * GitHub account button, at the GitHub account section.
   */
  settingsFocus: "relay" | "github" | null;
  openDialog(dialog: DialogName, focus?: "relay" | "github"): void;
  closeDialog(): void;
  askConfirm(request: ConfirmRequest): void;
  closeConfirm(): void;
  toggleOutline(): void;
  toggleHistory(open?: boolean): void;
  toggleConversation(open?: boolean): void;
  viewVersion(version: UiState["viewingVersion"]): void;
  /** Escape: closes the confirmation, else the dialog, else the version view. Returns whether it closed something. */
  escape(): boolean;
}

export type UiStore = StoreApi<UiState>;

export function createUiStore(): UiStore {
  return createStore<UiState>((set, get) => ({
    page: "documents",
    showPage: (page) => set({ page }),
    chatAgentId: null,
    openAgentChat: (agentId) => set({ page: "agent-chat", chatAgentId: agentId }),
    configuringAgentId: null,
    configureAgent: (agentId) => set(agentId === null ? { configuringAgentId: null } : { page: "agents", configuringAgentId: agentId }),
    dialog: null,
    confirm: null,
    outlineOpen: true,
    historyOpen: false,
    conversationOpen: false,
    historyFocusPending: false,
    historyFocused: () => set({ historyFocusPending: false }),
    viewingVersion: null,
    searchFocusRequests: 0,
    listFocusRequests: 0,
    titleFocusRequests: 0,
    versionFocusRequests: 0,
    focusViewedVersion: () => set({ versionFocusRequests: get().versionFocusRequests + 1 }),
    // Closes the palette first, as focusSearch does.
    focusTitle: () => set({ titleFocusRequests: get().titleFocusRequests + 1, dialog: get().dialog === "palette" ? null : get().dialog }),
    focusDocumentList: () => set({ listFocusRequests: get().listFocusRequests + 1 }),
    // Closes the palette first: focus goes to the field only after the dialog has handed focus back.
    focusSearch: () => set({ searchFocusRequests: get().searchFocusRequests + 1, dialog: get().dialog === "palette" ? null : get().dialog }),
    settingsFocus: null,
    openDialog: (dialog, focus) => set({ dialog, settingsFocus: dialog === "settings" ? (focus ?? null) : null }),
    closeDialog: () => set({ dialog: null }),
    askConfirm: (confirm) => set({ confirm }),
    closeConfirm: () => set({ confirm: null }),
    toggleOutline: () => set({ outlineOpen: !get().outlineOpen }),
    toggleHistory: (open) => {
      const historyOpen = open ?? !get().historyOpen;
      set({ historyOpen, historyFocusPending: historyOpen });
    },
    toggleConversation: (open) => set({ conversationOpen: open ?? !get().conversationOpen }),
    viewVersion: (viewingVersion) => set({ viewingVersion }),
    escape() {
      const { confirm, dialog, viewingVersion } = get();
      if (confirm) set({ confirm: null });
      else if (dialog) set({ dialog: null });
      else if (viewingVersion) set({ viewingVersion: null });
      else return false;
      return true;
    },
  }));
}
