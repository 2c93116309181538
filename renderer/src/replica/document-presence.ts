/**
 * Presence for one open document, on the replica host's side: who is here and where their selection is, through
 * automerge-repo's Presence (ephemeral messages on the DocHandle, heartbeats, peers forgotten after a TTL).
 * Selections travel as Automerge cursors, which stay attached to the same characters while text moves, with the plain
 * index as a fallback for a cursor the receiver cannot resolve yet. The page's editor gives and gets plain positions
 * in the session's text (text-authority.ts versions); this converts at the authority's current version.
 * What must stay true: nothing here writes to the document; with the team unreachable only this device's windows
 * are reported.
 */
import { next as A } from "@automerge/automerge";
import { Presence, type DocHandle } from "@automerge/automerge-repo";
import { PRESENCE_PEER_TTL_MS } from "../../../shared/limits.js";
import { PRESENCE_HEARTBEAT_MS } from "../limits.js";
import { shownName, type Peer, type PresenceState, type PresenceUser, type SharedPosition } from "../editor/presence-types.js";
import { BODY_FIELD } from "../mirror/automerge-text-changes.js";
import type { HostCaret } from "./host-protocol.js";

const TEXT_PATH = [BODY_FIELD];
const FALLBACK_CARET_COLOR = "#888888";

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

export interface DocumentPresenceOptions {
  handle: DocHandle<unknown>;
  user: PresenceUser;
  /** The body's length and version now (the positions reported are in that text). */
  text: () => { length: number; version: number };
  report: (version: number, peers: Peer[], carets: HostCaret[]) => void;
  heartbeatMs?: number;
  peerTtlMs?: number;
}

export class DocumentPresence {
  readonly #o: DocumentPresenceOptions;
  readonly #presence: Presence<PresenceState>;
  #device: string | undefined;
  #teamReachable = true;
  #refreshQueued = false;
  #stopped = false;
  readonly #refresh = () => this.#scheduleRefresh();

  constructor(options: DocumentPresenceOptions) {
    this.#o = options;
    this.#device = options.user.device;
    this.#presence = new Presence<PresenceState>({ handle: options.handle });
    for (const event of ["update", "snapshot", "goodbye", "pruning", "heartbeat"] as const) this.#presence.on(event, this.#refresh);
    options.handle.on("change", this.#refresh);
    this.#presence.start({
      initialState: { user: options.user, selection: null },
      heartbeatMs: options.heartbeatMs ?? PRESENCE_HEARTBEAT_MS,
      peerTtlMs: options.peerTtlMs ?? PRESENCE_PEER_TTL_MS,
    });
    this.#scheduleRefresh();
  }

  /** This window's selection, as positions in the body as it is now. */
  setSelection(anchor: number, head: number): void {
    if (this.#stopped) return;
    const doc = this.#o.handle.doc() as A.Doc<unknown>;
    this.#presence.broadcast("selection", { anchor: encodePosition(doc, anchor), head: encodePosition(doc, head) });
  }

  setUser(user: PresenceUser): void {
    this.#device = user.device ?? this.#device;
    if (!this.#stopped) this.#presence.broadcast("user", user);
    this.#scheduleRefresh();
  }

  /** Whether this device's core reaches the team relay; while not, teammates' last states are stale. */
  setTeamReachable(reachable: boolean): void {
    if (reachable === this.#teamReachable) return;
    this.#teamReachable = reachable;
    this.#scheduleRefresh();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#o.handle.off("change", this.#refresh);
    this.#presence.removeAllListeners();
    this.#presence.stop();
  }

  // Handle "change" fires inside the handle's update; reading the document there is fine, but one report per burst is
  // enough, after the authority has taken the change (its listener runs first).
  #scheduleRefresh(): void {
    if (this.#refreshQueued || this.#stopped) return;
    this.#refreshQueued = true;
    queueMicrotask(() => {
      this.#refreshQueued = false;
      if (!this.#stopped) this.#report();
    });
  }

  #report(): void {
    const states = this.#presence.getPeerStates().value;
    const { length, version } = this.#o.text();
    const doc = this.#o.handle.isReady() ? (this.#o.handle.doc() as A.Doc<unknown>) : null;
    const peers: Peer[] = [];
    const carets: HostCaret[] = [];
    for (const [peerId, state] of Object.entries(states)) {
      const user = state.value?.user;
      if (!user || typeof user.name !== "string") continue;
      // With the relay link down, no teammate's heartbeat can arrive: they are not shown as here until it is back
      // (their states stay, so a reconnect shows whoever is still heartbeating at once). This device's windows stay.
      const ownWindow = this.#device !== undefined && user.device === this.#device;
      if (!this.#teamReachable && !ownWindow) continue;
      const color = typeof user.color === "string" ? user.color : FALLBACK_CARET_COLOR;
      const name = shownName(user, this.#device);
      peers.push({ peerId, name, color });
      const selection = state.value.selection;
      if (doc && selection) {
        carets.push({ peerId, name, color, anchor: decodePosition(doc, selection.anchor, length), head: decodePosition(doc, selection.head, length) });
      }
    }
    this.#o.report(version, peers, carets);
  }
}
