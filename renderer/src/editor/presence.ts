/**
 * Presence for one open document: who is here and where their caret is. Built on automerge-repo's Presence
 * (ephemeral messages on the DocHandle, heartbeats, peers forgotten after a TTL). Selections travel as Automerge
 * cursors, which stay attached to the same characters while text moves, with the plain index as a fallback for a
 * cursor the receiver cannot resolve yet. What must stay true: nothing here writes to the document.
 */
import { next as A } from "@automerge/automerge";
import { Presence, type DocHandle } from "@automerge/automerge-repo";
import type { Extension } from "@codemirror/state";
import { EditorView, ViewPlugin } from "@codemirror/view";
import { PRESENCE_HEARTBEAT_MS, PRESENCE_PEER_TTL_MS } from "../../../shared/limits.js";
import { remoteCaretsField, setRemoteCarets, type RemoteCaret } from "./remote-carets.js";
import { caretLabelFit } from "./caret-label-fit.js";

const TEXT_PATH = ["text"];

/** A position as an Automerge cursor plus the index it had when sent. */
export interface SharedPosition {
  cursor: string | null;
  index: number;
}

export interface PresenceUser {
  name: string;
  color: string;
  /** The app core (device) the window belongs to: a person's own other windows are told apart from teammates. */
  device?: string;
}

/** How a window of this same device is named in "Also here" and on its caret. */
export const OWN_OTHER_WINDOW_NAME = "You (another window)";

export type PresenceState = {
  user: PresenceUser;
  selection: { anchor: SharedPosition; head: SharedPosition } | null;
};

export interface Peer extends PresenceUser {
  peerId: string;
}

/** The name to show for a peer: a window of this device is the person themself, not a teammate of the same name. */
export function shownName(user: PresenceUser, ownDevice: string | undefined): string {
  return ownDevice !== undefined && user.device === ownDevice ? OWN_OTHER_WINDOW_NAME : user.name;
}

export function encodePosition(doc: A.Doc<unknown>, index: number): SharedPosition {
  try {
    return { cursor: A.getCursor(doc, TEXT_PATH, index), index };
  } catch {
    return { cursor: null, index };
  }
}

export function decodePosition(doc: A.Doc<unknown>, position: SharedPosition, length: number): number {
  if (position.cursor) {
    try {
      return Math.min(length, A.getCursorPosition(doc, TEXT_PATH, position.cursor));
    } catch {
      // The cursor names a change this replica has not received yet.
    }
  }
  return Math.max(0, Math.min(length, Number(position.index) || 0));
}

export interface PresenceBinding {
  /** CodeMirror extension: remote carets plus broadcasting this editor's selection. */
  extension: Extension;
  setUser(user: PresenceUser): void;
  /** Whether this device's core is connected to the team relay; while not, only this device's windows are shown. */
  setTeamReachable(reachable: boolean): void;
  stop(): void;
}

export function bindPresence(options: {
  handle: DocHandle<unknown>;
  user: PresenceUser;
  onPeers: (peers: Peer[]) => void;
  heartbeatMs?: number;
  peerTtlMs?: number;
}): PresenceBinding {
  const { handle, onPeers } = options;
  // This window's own device, from the user it presents (setUser may learn it later).
  let device = options.user.device;
  const ownDevice = () => device;
  const presence = new Presence<PresenceState>({ handle });
  let view: EditorView | null = null;
  let refreshQueued = false;
  let stopped = false;
  /** False while this device's core is not connected to the relay: teammates' last states are stale then. */
  let teamReachable = true;

  const selectionOf = (v: EditorView): PresenceState["selection"] => {
    const doc = handle.doc() as A.Doc<unknown>;
    const { anchor, head } = v.state.selection.main;
    return { anchor: encodePosition(doc, anchor), head: encodePosition(doc, head) };
  };

  const refresh = () => {
    refreshQueued = false;
    if (stopped) return;
    const states = presence.getPeerStates().value;
    const peers: Peer[] = [];
    const carets: RemoteCaret[] = [];
    const doc = handle.isReady() ? (handle.doc() as A.Doc<unknown>) : null;
    for (const [peerId, state] of Object.entries(states)) {
      const user = state.value?.user;
      if (!user || typeof user.name !== "string") continue;
      // With the relay link down, no teammate's heartbeat can arrive: they are not shown as here until it is back
      // (their states stay, so a reconnect shows whoever is still heartbeating at once). This device's windows stay.
      const ownWindow = ownDevice() !== undefined && user.device === ownDevice();
      if (!teamReachable && !ownWindow) continue;
      const color = typeof user.color === "string" ? user.color : "#888888";
      const name = shownName(user, ownDevice());
      peers.push({ peerId, name, color });
      const selection = state.value.selection;
      if (view && doc && selection) {
        const length = view.state.doc.length;
        carets.push({
          peerId,
          name,
          color,
          anchor: decodePosition(doc, selection.anchor, length),
          head: decodePosition(doc, selection.head, length),
        });
      }
    }
    onPeers(peers);
    view?.dispatch({ effects: setRemoteCarets.of(carets) });
  };
  // Handle "change" fires inside CodeMirror updates (local typing); a dispatch there would throw, so defer.
  const scheduleRefresh = () => {
    if (refreshQueued || stopped) return;
    refreshQueued = true;
    queueMicrotask(refresh);
  };

  for (const event of ["update", "snapshot", "goodbye", "pruning", "heartbeat"] as const) presence.on(event, scheduleRefresh);
  handle.on("change", scheduleRefresh);

  // A tab closed or reloaded says goodbye as it goes, or teammates (and this person's other tabs) keep showing it
  // until the heartbeat TTL; a reloaded tab showed its owner twice (UX audit).
  const leaving = () => stop();
  globalThis.addEventListener?.("pagehide", leaving);

  presence.start({
    initialState: { user: options.user, selection: null },
    heartbeatMs: options.heartbeatMs ?? PRESENCE_HEARTBEAT_MS,
    peerTtlMs: options.peerTtlMs ?? PRESENCE_PEER_TTL_MS,
  });

  // Deferred so the sync plugin has written this update's text into Automerge before positions are encoded.
  let broadcastQueued = false;
  const scheduleBroadcast = () => {
    if (broadcastQueued || stopped) return;
    broadcastQueued = true;
    queueMicrotask(() => {
      broadcastQueued = false;
      if (!stopped && view) presence.broadcast("selection", selectionOf(view));
    });
  };

  const broadcaster = ViewPlugin.define((v) => {
    view = v;
    scheduleBroadcast();
    scheduleRefresh();
    return {
      update(update) {
        if (update.selectionSet || update.docChanged) scheduleBroadcast();
      },
      destroy() {
        if (view === v) view = null;
      },
    };
  });

  return {
    extension: [remoteCaretsField, broadcaster, caretLabelFit],
    setUser(user) {
      device = user.device ?? device;
      if (!stopped) presence.broadcast("user", user);
      scheduleRefresh();
    },
    setTeamReachable(reachable) {
      if (reachable === teamReachable) return;
      teamReachable = reachable;
      scheduleRefresh();
    },
    stop,
  };

  function stop(): void {
    if (stopped) return;
    stopped = true;
    globalThis.removeEventListener?.("pagehide", leaving);
    handle.off("change", scheduleRefresh);
    presence.removeAllListeners();
    presence.stop();
  }
}

