/**
 * The messages between the page (main thread) and the replica host (the window's Automerge replica, in a Web Worker;
 * in-process in tests). The page holds no Automerge document: it opens document sessions here, each an editor mirror
 * (mirror/protocol.ts) plus what the editor shows about the document (heads for the save state, presence), and it
 * serves the host what only the page has: the core's API and the origin's localStorage.
 * What must stay true: every message names its session where it concerns one document; the host never answers a
 * session the page closed.
 */
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import type { AuthorityToMirror, MirrorChannel, MirrorToAuthority } from "../mirror/protocol.js";
import type { Peer, PresenceUser } from "../editor/presence-types.js";

/** A remote caret as the host knows it: positions in the session's text at the version the message names. */
export interface HostCaret {
  peerId: string;
  name: string;
  color: string;
  anchor: number;
  head: number;
}

/** The core API methods the host may call through the page (a subset of ChopinApi, by name). */
export type HostApiMethod = "getDocument" | "readSavedDocument" | "waitSaved";

export type PageToHost =
  /**
   * `saved`: the core's stored bytes of the document, base64 (decoded off the page's thread), or null. `baseHeads`:
   * the heads of the snapshot `baseText` came from (UrlHeads), or null when unknown.
   */
  | { t: "open"; session: number; url: string; saved: string | null; baseText: string | null; baseHeads: string[] | null; user: PresenceUser; displayName: string | null }
  | { t: "mirror"; session: number; m: MirrorToAuthority }
  /** This editor's selection, as positions in the session's text at `version`. */
  | { t: "selection"; session: number; version: number; anchor: number; head: number }
  /** The core confirmed these heads on disk for the session's document. */
  | { t: "confirmed"; session: number; heads: string[] }
  /** The core could not confirm: what is not confirmed should be kept at once, not after a delay. */
  | { t: "unconfirmed"; session: number }
  | { t: "close"; session: number }
  /** Who this window is: presence's user, and the name version history shows for its edits (null: none set). */
  | { t: "user"; user: PresenceUser; displayName: string | null }
  | { t: "team-reachable"; reachable: boolean }
  | { t: "api-result"; id: number; ok: true; value: unknown }
  | { t: "api-result"; id: number; ok: false; code: string; message: string }
  /** The origin's outbox entries as they are now (at start, and when another window changed one). */
  | { t: "storage"; entries: [key: string, value: string | null][] }
  | { t: "core-link"; state: BridgeConnectionState }
  /** The page is going away: keep what is not confirmed now. */
  | { t: "flush" }
  /** Host mode: the core refused this page; stop reconnecting. */
  | { t: "disconnect" };

export type HostToPage =
  | { t: "mirror"; session: number; m: AuthorityToMirror }
  /** The document is loaded and its body is in the mirror's session; `heads` are its heads (UrlHeads). */
  | { t: "ready"; session: number; heads: string[] }
  | { t: "heads"; session: number; heads: string[] }
  | { t: "failed"; session: number; code: string; message: string }
  | { t: "presence"; session: number; version: number; peers: Peer[]; carets: HostCaret[] }
  /** The outbox's sentence for a session's document (null: the problem is gone). */
  | { t: "outbox-problem"; session: number; message: string | null }
  | { t: "notice"; message: string }
  | { t: "api"; id: number; method: HostApiMethod; args: unknown[] }
  | { t: "storage-set"; key: string; value: string }
  | { t: "storage-remove"; key: string };

/** One end of the page <-> host link (a Worker and its global scope, or a MessageChannel's ports in tests). */
export type HostLink<Out, In> = MirrorChannel<Out, In>;
