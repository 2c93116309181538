/**
 * The bounds that cross a boundary (the window and the core, the core and the relay, the wire), named once; a bound
 * only one layer enforces lives with it (main/util/limits.ts, sync-relay/limits.ts, renderer/src/limits.ts). Tests
 * check each at its edge.
 * Values come from the seeds and the public prototype's limits (../shared/reference/chopin.md §2) unless noted.
 */

/** Title length in characters (prototype: titles 1–120). */
export const MAX_TITLE_CHARS = 120;
/** Canonical Markdown source of one document, in UTF-8 bytes (prototype: 256 KiB canonical source). */
export const MAX_DOCUMENT_MARKDOWN_BYTES = 256 * 1024;
/**
 * A text update (shared/text-splices.ts) diffs by lines, then refines a changed hunk by characters only when its two
 * sides together are at most this many UTF-16 units: a paragraph-sized edit keeps its unchanged words (a teammate's
 * typing in them merges cleanly), a rewritten section is spliced whole instead of diffed character by character.
 */
export const TEXT_DIFF_CHAR_HUNK_UNITS = 4096;
/**
 * Steps (diagonals visited + tokens matched) all the diffs of one text update may take together, tens of ms: past it
 * the line diff replaces the trimmed middle whole and the remaining hunks are spliced whole, so an agent's rewrite
 * never costs time quadratic in the body (A.updateText took over 30 s for a 100 KB rewrite).
 */
export const TEXT_DIFF_MAX_WORK = 2_000_000;
/** Title used when a person creates a document without naming it. */
export const DEFAULT_DOCUMENT_TITLE = "Untitled plan";
/** Search query length accepted by the document list. */
export const MAX_SEARCH_QUERY_CHARS = 200;
export const MAX_MCP_BRANCH_CHARS = 255;
export const MAX_MCP_COMMIT_CHARS = 64;
export const MAX_MCP_GOAL_CHARS = 4096;
/** Each brief list item (constraints, decisions, questions, findings) and the count of items per list. */
export const MAX_MCP_BRIEF_ITEM_CHARS = 5000;
export const MAX_MCP_BRIEF_ITEMS = 50;
/** Repository owner and name, as GitHub bounds them. */
export const MAX_REPOSITORY_OWNER_CHARS = 39;
export const MAX_REPOSITORY_NAME_CHARS = 100;
/** MCP client name recorded in provenance. */
export const MAX_MCP_CLIENT_NAME_CHARS = 128;

/** Largest single WebSocket message the relay accepts; larger frames close the socket with 1009. */
export const MAX_RELAY_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * How long after a Repo let go of a document its Automerge memory is freed (shared/free-unloaded-doc.ts): longer than
 * a throttled save (100 ms) or a sync round still holding the old document could take.
 */
export const UNLOADED_DOC_FREE_DELAY_MS = 10_000;

export const MAX_DISPLAY_NAME_CHARS = 80;

/** Every request to GitHub (or the configured GitHub Enterprise / fake base) gives up after this long. */
export const GITHUB_REQUEST_TIMEOUT_MS = 15_000;
/** A GitHub response body larger than this is refused rather than buffered, by the app and the relay alike (prototype: response ≤ 5 MiB). */
export const MAX_GITHUB_RESPONSE_BYTES = 5 * 1024 * 1024;
/** A repository node id given to bindRepository, in characters (the plan document schema stores up to the same). */
export const MAX_GITHUB_NODE_ID_CHARS = 128;
export const PRESENCE_PEER_TTL_MS = 20_000;

/** Peer id length on the relay wire ("<handle>:<device>"). */
export const MAX_PEER_ID_CHARS = 128;
/** A relay connection that has not sent its join frame within this bound is closed. */
export const RELAY_JOIN_TIMEOUT_MS = 10_000;
/** Relay liveness pings; a socket silent for two intervals is terminated. */
export const RELAY_KEEPALIVE_MS = 15_000;
/**
 * The change fast path carries a batch of fresh changes only up to this many bytes (concatenated change chunks);
 * larger batches (an import, a long offline stretch) travel by the sync protocol alone. The relay refuses above it.
 */
export const FAST_PATH_MAX_BYTES = 64 * 1024;
/**
 * Between a client and the relay that agreed on the fast path, every change crosses in a "changes" frame the moment
 * it is made, so automerge-repo's sync protocol (stock pace: a round per document every 100 ms of changes) is only the
 * safety net and runs at most this often per document and peer. Anything the fast path cannot carry (a batch above
 * FAST_PATH_MAX_BYTES, a batch waiting on missing dependencies) asks for a sync round at once instead, so no change
 * waits on this pace; at 1 s these rounds were still a third of the relay's CPU under a steady load (each costs
 * both ends a wasm round trip of the whole sync state). Not slower: the relay's acknowledgement, which ends the sync
 * indicator's "sending N changes", does ride on these rounds (5 s saved ~15% more relay CPU but kept it up ~6 s).
 */
export const FAST_PATH_SYNC_INTERVAL_MS = 2000;
/**
 * A change noted in a sync state as already delivered by the fast path (shared/sync-pacing.ts notePeerHas) is
 * forgotten again after this long: by then the peer's own paced sync messages (one per FAST_PATH_SYNC_INTERVAL_MS)
 * report heads that cover it. Automerge keeps such notes for the whole session and copies them in and out of wasm on
 * every sync message (~5 µs each), so unforgotten they made each round cost more the longer people typed.
 */
export const NOTED_CHANGE_TTL_MS = 2 * FAST_PATH_SYNC_INTERVAL_MS;
/**
 * A fast-path receiver (a core from the relay or a window, a window from its core) applies a document's received
 * batches at most this often: an Automerge apply costs about as much for one change as for dozens (1-3 ms a call
 * measured here), so under a burst the changes of one display frame apply together. Typing never waits this long.
 */
export const FAST_PATH_APPLY_MIN_INTERVAL_MS = 16;
/**
 * An apply can be slow: Automerge 3 (which this app ran before 2.2.9, docs/architecture.md) walked the whole document,
 * ~60 ms a call for a 100 KB plan measured here; 2.2.9 takes ~1 ms, but a big batch still costs. A fast-path receiver
 * therefore spaces a
 * document's applies so they take at most this share of its thread: after an apply that took c ms, the next starts no
 * sooner than c / share ms after it began. A teammate typing into a large document then shows in bigger, rarer steps
 * instead of keeping a window's main thread (and the person's own typing) busy with applies.
 */
export const FAST_PATH_APPLY_BUSY_SHARE = 0.25;
/** However slow the last apply, a document's next one waits at most this long (a teammate's edit stays visible). */
export const FAST_PATH_APPLY_MAX_WAIT_MS = 1000;
/** A window fast-link batch naming a longer document id is malformed (automerge-repo ids are ~28 characters). */
export const MAX_FAST_LINK_DOCUMENT_ID_CHARS = 128;
/** A relay wire frame's `type` (automerge-repo's are ~10 characters); longer is malformed. */
export const MAX_WIRE_FRAME_TYPE_CHARS = 64;
/** A relay wire frame's documentId (automerge-repo ids are ~28 characters); longer is malformed. */
export const MAX_WIRE_DOCUMENT_ID_CHARS = 128;
/** A feature name in a join or peer frame (ours, e.g. "fast-changes", are ~12 characters); longer is malformed. */
export const MAX_WIRE_FEATURE_NAME_CHARS = 64;

/** A conversation message's Markdown, in UTF-8 bytes (prototype: MAX_MESSAGE_BYTES 64 KiB, chat/limits.ts). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** A sender's clientRequestId (the idempotency key of one send, its retries included). */
export const MAX_CLIENT_REQUEST_ID_CHARS = 128;
/** Entries one read of a conversation returns when the caller names no limit. */
export const CONVERSATION_PAGE_DEFAULT_ENTRIES = 50;
/** Entries one read of a conversation returns at most, from the app and over MCP. */
export const MAX_CONVERSATION_PAGE_ENTRIES = 200;

/**
 * How long a Planner lease lasts after each claim or renewal, by the clock of whoever keeps it (the relay; the app for
 * a local-only plan). An owner's app renews well within it and stops acting before it could have ended.
 */
export const PLANNER_LEASE_TTL_MS = 30_000;
/**
 * A fenced write (the Planner's change, published by its owner under its ownership generation) carries at most this
 * many bytes of change data and this many changes: a whole plan rewritten at its 1 MB body bound fits, well inside
 * MAX_RELAY_MESSAGE_BYTES.
 */
export const MAX_FENCED_WRITE_BYTES = 2 * 1024 * 1024;
export const MAX_FENCED_WRITE_CHANGES = 64;

/** Tool calls a Planner answer records (the latest ones): what the turn did, for the transcript and agents. */
export const MAX_PLANNER_ENTRY_TOOLS = 50;
/** The longest tool name, permission check name or note a Planner entry records. */
export const MAX_PLANNER_ENTRY_LABEL_CHARS = 100;
/** The longest reason or failure note a Planner entry records for one tool call or denial. */
export const MAX_PLANNER_ENTRY_NOTE_CHARS = 1_000;

/** Documents one conversation message may reference with `#` (the Planner reads them with read_reference). */
export const MAX_MESSAGE_REFERENCES = 5;

/**
 * Agent profiles (issue #27), shared with the team: the profiles a team keeps besides the built-in Planner (creation
 * refuses the next one), a name's length in UTF-16 code units (as a title's), instructions in UTF-8 bytes (Markdown,
 * sent to a model with every session, so far below a message's bound), a model's name, and a profile id.
 */
export const MAX_AGENT_PROFILES = 50;
export const MAX_AGENT_NAME_CHARS = 60;
export const MAX_AGENT_INSTRUCTIONS_BYTES = 16 * 1024;
export const MAX_AGENT_MODEL_CHARS = 200;
export const MAX_AGENT_ID_CHARS = 64;
/**
 * An agent chat's person key ("github:<login>" or "device:<device id>", as conversation entries key their authors),
 * as a chat plan records it: far above either form, so only a damaged or hostile record is refused.
 */
export const MAX_AGENT_CHAT_PERSON_CHARS = 200;
/**
 * The sidebar's Agents (issue #27): the agents a person may star in a scope (starring the next is refused; a merge of
 * two devices' stars past it lists the first by name), and the most recently visited unstarred chats it lists after
 * them.
 */
export const MAX_AGENT_STARS = 20;
export const AGENT_SIDEBAR_RECENTS = 4;
/**
 * Agent chats one team's table keeps (the relay's for a team, an app's for its device's scope: agent-chat-table.ts):
 * far above a team of a hundred people each chatting with every agent it may keep (MAX_AGENT_PROFILES + 1), so only
 * a runaway or hostile registrant meets it; the listing of a whole team stays a few megabytes at most.
 */
export const MAX_AGENT_CHATS_PER_TEAM = 10_000;
/**
 * A plan handoff (issue #27): the brief written above the handed-off plan, in UTF-8 bytes (a few paragraphs: the
 * drafted plan follows it whole). The new plan's title is a plan title (MAX_TITLE_CHARS).
 */
export const MAX_HANDOFF_BRIEF_BYTES = 8 * 1024;
