/**
 * Everything the components share, built once per window from the connection: the bridge, the client of the
 * window's replica host and the stores. Components reach it through AppServicesContext, so tests can build the same
 * thing around a test bridge. It keeps the replica host told who this window is (presence, authorship) and whether
 * the team is reachable.
 */
import { createContext, useContext } from "react";
import type { ChopinBridge } from "../../../shared/api.js";
import type { CoreLink } from "../bridge/connect.js";
import type { ReplicaClient } from "../replica-link/replica-client.js";
import { createConnectionStore, type ConnectionStore } from "./connection-store.js";
import { createDocumentsStore, type DocumentsStore } from "./documents-store.js";
import { createEditorStore, type EditorStore } from "./editor-store.js";
import { createGitHubStore, type GitHubStore } from "./github-store.js";
import { createSessionStore, type SessionStore } from "./session-store.js";
import { createUiStore, type UiStore } from "./ui-store.js";
import { pageStorage, rememberLastOpen, reopenLast } from "./last-open.js";
import { paceChanges, type IntervalSchedule } from "./paced-changes.js";

/** The caret colour of a person whose identity is not known yet. */
const FALLBACK_COLOR = "#5b6b7f";

export interface AppServices {
  bridge: ChopinBridge;
  replica: ReplicaClient;
  documents: DocumentsStore;
  connection: ConnectionStore;
  session: SessionStore;
  ui: UiStore;
  editor: EditorStore;
  github: GitHubStore;
  /** Subscribes the stores to core events; returns the unsubscribe. */
  start(): () => void;
}

export interface AppServicesOptions {
  /** How 'documents-changed' reactions are paced (paced-changes.ts); tests end the intervals by hand. */
  changeSchedule?: IntervalSchedule;
}

export function createAppServices(
  bridge: ChopinBridge,
  replica: ReplicaClient,
  coreLink?: CoreLink,
  options: AppServicesOptions = {},
): AppServices {
  const documents = createDocumentsStore(bridge.api);
  const connection = createConnectionStore(bridge, coreLink);
  const session = createSessionStore(bridge);
  const ui = createUiStore();
  const editor = createEditorStore();
  const github = createGitHubStore(bridge);
  return {
    bridge,
    replica,
    documents,
    connection,
    session,
    ui,
    editor,
    github,
    start() {
      const stops = [connection.start(), session.start(), github.start()];
      // Who this window is, for presence and for version history's "who" (its edits are written by the host).
      const tellIdentity = () => {
        const me = session.getState().identity;
        replica.setUser({ name: me?.displayName || "Someone", color: me?.color || FALLBACK_COLOR, device: me?.peerId }, me?.displayName || null);
      };
      tellIdentity();
      stops.push(session.subscribe((s, before) => s.identity !== before.identity && tellIdentity()));
      // Teammates reach this window through the core's relay link: with it down (offline, refused), none can be here.
      const teamReachable = () => {
        const sync = connection.getState().sync;
        return sync === null || sync.state === "connected";
      };
      let reachable = teamReachable();
      replica.setTeamReachable(reachable);
      stops.push(
        connection.subscribe(() => {
          if (teamReachable() === reachable) return;
          reachable = !reachable;
          replica.setTeamReachable(reachable);
        }),
      );
      // One event per change the core applies (per keystroke while anyone types): re-read at most once an interval.
      const changes = paceChanges((ids) => {
        void documents.getState().refresh();
        const open = documents.getState().selected;
        if (open && ids.has(open.id)) void documents.getState().reloadSelected();
      }, options.changeSchedule);
      stops.push(bridge.on("documents-changed", ({ ids }) => changes.add(ids)), () => changes.stop());
      if (coreLink) {
        // Set once the link has been down: reads made then were refused (not held), and events may have been missed.
        let missed = coreLink.state() === "closed";
        stops.push(
          coreLink.on((state) => {
            if (state === "closed") missed = true;
            if (state === "open" && missed) {
              missed = false;
              void documents.getState().refresh();
              void documents.getState().reloadSelected();
              void session.getState().load();
              void github.getState().load();
            }
          }),
        );
      }
      // A document opened (from the list, the palette, a new one) is shown: the Agents page gives way (issue #27).
      stops.push(
        documents.subscribe((s, before) => {
          const opened = (s.opening !== before.opening && s.opening !== null) || (s.selected !== null && s.selected.id !== before.selected?.id);
          if (opened && ui.getState().page !== "documents") ui.getState().showPage("documents");
        }),
      );
      const storage = pageStorage();
      stops.push(rememberLastOpen(documents, storage));
      void documents
        .getState()
        .refresh()
        .then(() => reopenLast(documents, storage));
      return () => stops.forEach((stop) => stop());
    },
  };
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error("AppServicesContext is missing");
  return services;
}
