/**
 * Everything the components share, built once per window from the connection: the bridge, the replica Repo and the
 * stores. Components reach it through AppServicesContext, so tests can build the same thing around a test bridge.
 */
import { createContext, useContext } from "react";
import type { Repo } from "@automerge/automerge-repo";
import type { ChopinBridge } from "../../../shared/api.js";
import type { CoreLink } from "../bridge/connect.js";
import { createConnectionStore, type ConnectionStore } from "./connection-store.js";
import { createDocumentsStore, type DocumentsStore } from "./documents-store.js";
import { createEditorStore, type EditorStore } from "./editor-store.js";
import { createGitHubStore, type GitHubStore } from "./github-store.js";
import { createSessionStore, type SessionStore } from "./session-store.js";
import { createUiStore, type UiStore } from "./ui-store.js";
import { pageStorage, rememberLastOpen, reopenLast } from "./last-open.js";
import { paceChanges, type IntervalSchedule } from "./paced-changes.js";

export interface AppServices {
  bridge: ChopinBridge;
  repo: Repo;
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
  repo: Repo,
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
    repo,
    documents,
    connection,
    session,
    ui,
    editor,
    github,
    start() {
      const stops = [connection.start(), session.start(), github.start()];
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
