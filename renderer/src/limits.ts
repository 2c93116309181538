/**
 * Bounds only the window enforces (issue #24: each bound lives with the layer that owns it; shared/limits.ts keeps
 * what crosses a boundary). Tests check each at its edge.
 */
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../shared/limits.js";

/** Reconnect backoff of the renderer's API socket to the core: first retry and cap. */
export const BRIDGE_RECONNECT_MIN_MS = 200;
export const BRIDGE_RECONNECT_MAX_MS = 5_000;
/** API calls the renderer keeps waiting for an answer (or for the socket to come back); more are refused at once. */
export const MAX_BRIDGE_PENDING_CALLS = 500;
/** Retry interval of the renderer replica's sync socket to the core (host mode). */
export const REPLICA_RECONNECT_MS = 1_000;
/** Ready-wait for a document the core has not handed to the replica yet, before the editor says it cannot open it. */
export const OPEN_DOCUMENT_TIMEOUT_MS = 30_000;
/** While the core does not have a document yet, the replica asks it again this often. */
export const OPEN_DOCUMENT_RETRY_MS = 500;
/**
 * How long a window's replica waits for the document to hold the core's snapshot (the text the editor starts from)
 * before owning the body anyway. Sync from the core brings it in milliseconds; the bound is for a core gone away.
 */
export const SNAPSHOT_CATCH_UP_MS = 5_000;
/** Presence: heartbeat interval and how long a silent peer stays shown. */
export const PRESENCE_HEARTBEAT_MS = 5_000;
/** After the core failed to confirm a save, the save indicator asks again after this long. */
export const SAVE_CONFIRM_RETRY_MS = 2_000;
/** Local typing moves a document's `updatedAt` at most this often (each move is one more Automerge change). */
export const UPDATED_AT_GRANULARITY_MS = 10_000;
/**
 * How long a click waits for the snapshot before showing the document without its text ("Opening…"). The core
 * answers in a few ms; showing the document only then paints header and text in one frame, instead of spending a
 * frame (layout, raster) on an empty page while the answer waits behind it.
 */
export const OPEN_PREVIEW_WAIT_MS = 100;

/**
 * Consecutive API-socket attempts turned away while the core's HTTP server answered (a wrong or stale per-launch
 * secret) before the window stops retrying and asks for the printed link; below it, the window keeps reconnecting.
 */
export const BRIDGE_REFUSALS_BEFORE_FATAL = 2;
/** How long the renderer waits for the core's HTTP server to answer when telling "refused" from "down". */
export const BRIDGE_PROBE_TIMEOUT_MS = 2_000;

/**
 * One window's kept, not-yet-confirmed edits to one document in the page's localStorage, in characters of the stored
 * JSON (base64 change bytes plus a little bookkeeping). Change bytes run to several times the text typed, and base64
 * adds a third, so the bound is a few documents' worth of Markdown. Past it the edits are kept as the whole document
 * when that fits, else the earlier kept entry stays and the window says so.
 */
export const OUTBOX_MAX_DOCUMENT_CHARS = 4 * MAX_DOCUMENT_MARKDOWN_BYTES;
/** All outbox entries of one origin together, in characters: well under the ~5 M characters browsers allow an origin. */
export const OUTBOX_MAX_TOTAL_CHARS = 3 * 1024 * 1024;
/**
 * A window writes its unconfirmed edits this long after the core last confirmed a save (or after the first
 * unconfirmed change): while the core confirms, nothing is encoded; once it stops, the edits are stored this soon.
 */
export const OUTBOX_WRITE_DELAY_MS = 500;
/** A kept entry the core still cannot confirm this long after it was written is dropped (and the window says so). */
export const OUTBOX_ENTRY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The find panel counts a query's matches up to this many ("1000+" past it): counting walks the document on every
 * edit while the panel is open, and a count past a thousand tells a person nothing more.
 */
export const MAX_FIND_MATCHES_COUNTED = 1000;

/** A conversation panel shows this many entries at first, and this many more each time earlier ones are asked for. */
export const CONVERSATION_PANEL_PAGE_ENTRIES = 50;
/** The composer's draft is kept (in the core) once typing pauses this long, and when the plan is left. */
export const CONVERSATION_DRAFT_SAVE_DELAY_MS = 400;
/** Past this share of MAX_MESSAGE_BYTES the composer shows how much room is left. */
export const MESSAGE_ROOM_WARNING_SHARE = 0.9;

/**
 * Marks of what the Planner changed in a plan (editor/planner-change-marks.ts): shown in full this long after the
 * change arrives, then fading out over PLANNER_CHANGE_MARK_FADE_MS (at once, without animation, where the person asks
 * for reduced motion), then gone.
 */
export const PLANNER_CHANGE_MARK_SHOW_MS = 8_000;
export const PLANNER_CHANGE_MARK_FADE_MS = 1_500;
/**
 * Marks one Planner change brings at most (a rewrite refined by characters can make hundreds of small edits); past it
 * the rest are not marked. The version history keeps the whole change.
 */
export const MAX_PLANNER_CHANGE_MARKS = 200;
/** A removed passage is shown struck through up to this many characters, then cut with an ellipsis. */
export const PLANNER_REMOVED_TEXT_SHOWN_CHARS = 600;

/** Documents the composer's `#` picker offers at once (the best matches of what follows the `#`). */
export const REFERENCE_SUGGESTIONS_SHOWN = 6;
/** The longest `#query` the picker follows: past it, the `#` is taken as text. */
export const REFERENCE_QUERY_MAX_CHARS = 60;

/**
 * The page the chat view asks readAgentChat for when it reads the chat's state (issue #27): the smallest, since the
 * entries come through the transcript's own paged read of the chat's conversation.
 */
export const AGENT_CHAT_STATE_READ_ENTRIES = 1;

/**
 * A turn's Retry is named for the message it sends again, "Retry: <its first words>", with at most this many
 * characters of those words (whole words where they fit, else cut and marked …): enough to tell two retries apart by
 * ear, short enough to be a button's name.
 */
export const RETRY_LABEL_MAX_CHARS = 40;
