/**
 * Every bound the product enforces, named once. Code elsewhere imports these; tests check each at its edge.
 * Values come from the seeds and the public prototype's limits (../shared/reference/chopin.md §2) unless noted.
 */

// ---- Documents ----
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
/** A document listing returns at most this many entries per call. */
export const MAX_LIST_DOCUMENTS = 1000;
/** Search query length accepted by the document list. */
export const MAX_SEARCH_QUERY_CHARS = 200;
/** A body match in the document list shows at most this many characters of text either side of the hit. */
export const SEARCH_SNIPPET_CONTEXT_CHARS = 40;

// ---- Version history ----
/**
 * Consecutive changes by one author closer together than this form one version in the history panel: a pause this
 * long (a coffee, a meeting) is where a person expects to find a point to go back to.
 */
export const VERSION_GROUP_GAP_MS = 2 * 60 * 1000;
/** A version spans at most this long: steady typing without such a pause still makes a version every so often. */
export const VERSION_MAX_SPAN_MS = 10 * 60 * 1000;
/**
 * People's changes closer together than this, whoever made them, form one version naming them all: two people typing
 * at once made a version per keystroke (each author's run was one key long), hundreds for a minute together, pushing
 * everything else out of the list. Someone editing after a pause this long starts a version of their own.
 */
export const VERSION_TOGETHER_MS = 15 * 1000;
/** The history panel lists at most this many versions (newest first). */
export const MAX_VERSIONS_LISTED = 500;
/**
 * A document id or URL the app API accepts, in characters (a real one is ~30-45). Checked before parsing: the
 * parser's cost grows with the square of the length, and a 100,000-character id held the core's thread for seconds.
 */
export const MAX_DOCUMENT_ID_CHARS = 128;

// ---- MCP (prototype mcp/*.ts) ----
export const MCP_PATH = "/mcp";
export const MAX_MCP_ID_CHARS = 128;
export const MAX_MCP_IDEMPOTENCY_KEY_CHARS = 128;
export const MAX_MCP_BRANCH_CHARS = 255;
export const MAX_MCP_COMMIT_CHARS = 64;
export const MAX_MCP_GOAL_CHARS = 4096;
/** Each brief list item (constraints, decisions, questions, findings) and the count of items per list. */
export const MAX_MCP_BRIEF_ITEM_CHARS = 5000;
export const MAX_MCP_BRIEF_ITEMS = 50;
/** Repository owner and name, as GitHub bounds them. */
export const MAX_REPOSITORY_OWNER_CHARS = 39;
export const MAX_REPOSITORY_NAME_CHARS = 100;
/** Request body cap for /mcp: 3 × 256 KiB, as in the prototype. */
export const MAX_MCP_REQUEST_BYTES = 3 * 256 * 1024;
/**
 * How much of an over-cap /mcp body is read and thrown away before the 413 is sent: a client still uploading when
 * the connection closes under it sees a network error ("fetch failed") instead of the answer. Past this, the
 * connection is closed at once (an upload this large is not an agent's request).
 */
export const MAX_MCP_DRAINED_BYTES = 32 * 1024 * 1024;
/** MCP client name recorded in provenance. */
export const MAX_MCP_CLIENT_NAME_CHARS = 128;
/**
 * A refused request's params are named by their path (params.capabilities.experimental.<key>): keys are the agent's
 * own text, so the error sentence shows at most this much of a path.
 */
export const MAX_MCP_PARAMS_PATH_CHARS = 120;
/** Such a refusal lists at most this many of the schema's complaints in `data.details.issues` (the sentence names one). */
export const MAX_MCP_PARAMS_ISSUES_LISTED = 10;

// ---- Relay ----
/** Largest single WebSocket message the relay accepts; larger frames close the socket with 1009. */
export const MAX_RELAY_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * Bytes queued to one relay socket (its reader slower than what it is sent) past which presence to it is dropped:
 * presence is a latest state, the next one replaces it, and a stalled reader must not make the relay hold a flood.
 */
export const RELAY_PRESENCE_BUFFER_BYTES = 1024 * 1024;
/**
 * Bytes queued to one relay socket past which it is closed (1013, try again later): its client reconnects, and a fresh
 * session catches up by sync. Above MAX_RELAY_MESSAGE_BYTES, so one largest message always fits.
 */
export const RELAY_MAX_BUFFERED_BYTES = 2 * MAX_RELAY_MESSAGE_BYTES;
/** A revoked user's live sockets are closed within this bound (issue #2: within 5 s). */
export const RELAY_REVOCATION_BOUND_MS = 5000;
/** How often the relay re-reads its user table to notice revocations made by another process. */
export const RELAY_USER_POLL_MS = 1000;
/**
 * How long after a Repo let go of a document its Automerge memory is freed (shared/free-unloaded-doc.ts): longer than
 * a throttled save (100 ms) or a sync round still holding the old document could take.
 */
export const UNLOADED_DOC_FREE_DELAY_MS = 10_000;
/**
 * How long the relay keeps the stored data of a plan deleted from the team's list before removing it (it refuses the
 * plan to every member at once; the grace only lets an operator recover a delete made by mistake). The README states it.
 */
export const RELAY_DELETED_DOCUMENT_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** How often the relay looks for deleted plans whose grace has passed. */
export const RELAY_DELETED_SWEEP_MS = 60 * 60 * 1000;
/** A document nobody touched for this long is evicted from relay memory (it stays in storage). */
export const RELAY_IDLE_EVICT_MS = 60_000;
/** How often the relay looks for idle documents. */
export const RELAY_EVICT_SWEEP_MS = 10_000;
/**
 * Loaded documents past which the relay also unloads documents idle for RELAY_MIN_IDLE_EVICT_MS, least recently
 * touched first: a new member's prefetch asks for every team plan within a minute, and with eviction at
 * RELAY_IDLE_EVICT_MS alone ~500 of 1,000 plans were loaded at once (~1.6 GB; a 5 KB plan holds ~2 MB in Automerge).
 */
export const RELAY_MAX_LOADED_DOCUMENTS = 256;
/** How long a document must be idle before the relay may unload it to get back under RELAY_MAX_LOADED_DOCUMENTS. */
export const RELAY_MIN_IDLE_EVICT_MS = 5_000;
/**
 * The relay saves a document that keeps changing at most this often (automerge-repo's stock is 100 ms). Its copy is
 * one replica of many: a killed relay loses at most this much, which clients send again on their next sync; a
 * graceful stop and eviction flush first.
 */
export const RELAY_SAVE_DEBOUNCE_MS = 1000;
/**
 * The relay forwards a fast-path batch the moment it arrives and applies it to its own copy of the document within
 * this long, together with the document's other batches of that window: an Automerge apply costs about as much for
 * one change as for dozens, so this bounds the relay's timed applies per busy document to one a second (at 100 ms
 * they were a third of the relay's CPU at a fixed load); a fast session's sync message for the document applies the
 * waiting batches at once (so Automerge can trim the notes that message covers). Its copy (what storage, clients
 * without the fast path and a session that just opened the document see) lags the team by this much (longer after a
 * slow apply, see RELAY_APPLY_BUSY_SHARE); a fast session that opened the document meanwhile gets the batch when it is
 * applied; close() applies everything first.
 */
export const RELAY_APPLY_INTERVAL_MS = 1000;
/**
 * An apply can be slow (a big batch; Automerge 3, which this app ran before 2.2.9, walked the whole document: ~60-90 ms
 * a call for a 100 KB plan here), so after a slow apply the relay waits longer before the document's next: at least the last apply's cost divided by this share (a relay serves
 * many documents; one being typed into takes at most this share of its thread for applies), both for the timed apply
 * and for a fast session's sync message (applyNow). Measured with one 100 KB document typed into every 30 ms (the relay
 * suite's 100 KB row): relay CPU 25/21% when every sync message applied at once, 16/18% with this share.
 */
export const RELAY_APPLY_BUSY_SHARE = 0.05;
/** However slow the last apply, the relay's copy takes a document's batches at most this long after they arrive. */
export const RELAY_APPLY_MAX_WAIT_MS = 10_000;
/** Handle (user name) shape at the relay. */
export const MAX_HANDLE_CHARS = 39;

// ---- Client sync ----
/** Reconnect backoff to the relay: first retry and cap. */
export const RELAY_RECONNECT_MIN_MS = 250;
export const RELAY_RECONNECT_MAX_MS = 10_000;

// ---- Display ----
export const MAX_DISPLAY_NAME_CHARS = 80;

// ---- GitHub (issue #3) ----
/** Every request to GitHub (or the configured GitHub Enterprise / fake base) gives up after this long. */
export const GITHUB_REQUEST_TIMEOUT_MS = 15_000;
/** A GitHub response body larger than this is refused rather than buffered (prototype: response ≤ 5 MiB). */
export const MAX_GITHUB_RESPONSE_BYTES = 5 * 1024 * 1024;
/** User access tokens (8 h) are refreshed this long before they expire. */
export const GITHUB_TOKEN_REFRESH_LEAD_MS = 5 * 60 * 1000;
/** After a failed refresh (network, outage) the next attempt waits this long, while the token is still valid. */
export const GITHUB_TOKEN_REFRESH_RETRY_MS = 30_000;
/** GitHub's device flow asks for at least this poll interval; `slow_down` adds the same amount again. */
export const GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS = 5_000;
/** Relay admission results are cached this long, keyed by the token's SHA-256 (prototype: 30 s). */
export const GITHUB_ADMISSION_CACHE_MS = 30_000;
/** The admission cache holds at most this many token hashes; the oldest go first. */
export const MAX_GITHUB_ADMISSION_CACHE_ENTRIES = 10_000;
/** A presented GitHub token longer than this is refused without asking GitHub. */
export const MAX_GITHUB_TOKEN_CHARS = 1024;
/**
 * GitHub sign-in checks one remote address may make at the relay per RELAY_GITHUB_CHECK_WINDOW_MS that admit nobody
 * (a token GitHub does not accept, a user not admitted). Every unknown token costs the relay a request to GitHub:
 * without a bound, one client sending random tokens spends the relay's GitHub rate limit until GitHub refuses it, and
 * admission then fails closed for every member. Admitted sign-ins are not counted.
 */
export const RELAY_GITHUB_CHECKS_PER_ADDRESS = 20;
export const RELAY_GITHUB_CHECK_WINDOW_MS = 60_000;
/** Remote addresses that budget remembers at most (the oldest is forgotten first). */
export const RELAY_GITHUB_CHECK_MAX_ADDRESSES = 4096;
/** Live relay connections admitted by a GitHub token are re-verified this often. */
export const GITHUB_ADMISSION_REVERIFY_MS = 60_000;
/** Permission facts (admitted, push/admin, installation access) are trusted for at most this long. */
export const GITHUB_PERMISSION_FACT_MAX_AGE_MS = 30_000;
/** Installations and repositories listed for the binding picker, per call. */
export const MAX_GITHUB_INSTALLATIONS_LISTED = 100;
export const MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED = 500;
/** A repository node id given to bindRepository, in characters (the plan document schema stores up to the same). */
export const MAX_GITHUB_NODE_ID_CHARS = 128;

// ---- Repository tools (issue #3; prototype §1.4) ----
/** A repository path given to a tool, in characters. */
export const MAX_REPOSITORY_PATH_CHARS = 1024;
/** read_repository_file: largest file read, in bytes (UTF-8 only). */
export const MAX_REPOSITORY_FILE_BYTES = 256 * 1024;
/** read_repository_file: lines returned when the caller gives no end line. */
export const REPOSITORY_FILE_DEFAULT_WINDOW_LINES = 400;
/** list_repository_tree: default and largest entry count. */
export const REPOSITORY_TREE_DEFAULT_ENTRIES = 200;
export const MAX_REPOSITORY_TREE_ENTRIES = 500;
/** repository_history: default and largest commit count. */
export const REPOSITORY_HISTORY_DEFAULT_COMMITS = 10;
export const MAX_REPOSITORY_HISTORY_COMMITS = 20;
/** search_repository: search terms length, default and largest result count. */
export const MAX_REPOSITORY_SEARCH_TERMS_CHARS = 200;
export const REPOSITORY_SEARCH_DEFAULT_RESULTS = 20;
export const MAX_REPOSITORY_SEARCH_RESULTS = 50;
/** list_pull_requests: default and largest count. */
export const PULL_REQUESTS_DEFAULT_LISTED = 20;
export const MAX_PULL_REQUESTS_LISTED = 50;
/** pull_request_read: items per list method (files, commits, comments, reviews, check runs). */
export const MAX_PULL_REQUEST_ITEMS = 100;
/** pull_request_read get_diff: the diff text is cut here and marked truncated. */
export const MAX_PULL_REQUEST_DIFF_BYTES = 256 * 1024;
/** Free text fields (bodies, messages) returned by the pull-request tools are cut to this many characters. */
export const MAX_GITHUB_TEXT_FIELD_CHARS = 20_000;

// ---- Host mode bridge ----
/** Largest API frame the host-mode bridge accepts from a page. */
export const MAX_BRIDGE_FRAME_BYTES = 4 * 1024 * 1024;
/** Length in bytes of the per-launch secret that guards host mode's sockets. */
export const HOST_SECRET_BYTES = 32;

// ---- Document service (main/documents) ----
/** waitSaved gives up after this long when the core never receives the asked-for heads. */
export const WAIT_SAVED_TIMEOUT_MS = 30_000;

/**
 * While chopin.db refuses writes (a full disk, a read-only file), a background write that failed (a plan's save, a
 * text snapshot, a team-removal record) is tried again this often, so it lands once the disk takes writes again
 * without waiting for the next edit.
 */
export const STORAGE_RETRY_MS = 2_000;
/**
 * How long getting the team's copy of a damaged shared plan waits for it to arrive before answering that it has not
 * yet (the fetch goes on: the plan opens once the relay sends it).
 */
export const DAMAGED_REFETCH_WAIT_MS = 20_000;

// ---- MCP server (main/mcp) ----
/** Random bytes in the per-installation MCP bearer token. */
export const MCP_TOKEN_BYTES = 32;
/** Sessions (initialize -> clientInfo) the MCP server remembers; the oldest is forgotten first. */
export const MAX_MCP_SESSIONS = 256;
/** How long a write's stored result answers a retry with the same idempotency key (agents retry within minutes). */
export const MCP_REPLAY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Stored MCP write results kept at most (the newest), so a busy agent cannot grow the database without bound. */
export const MAX_MCP_REPLAYS = 50_000;
/**
 * MCP writes applied in memory whose save failed (a full disk), kept so a retry with the same key saves that write
 * instead of applying it again (a second plan, or 'revision-conflict' against its own edit); the oldest is forgotten
 * first. In memory only: after a restart an unsaved write is gone, and so is its entry.
 */
export const MAX_MCP_UNCONFIRMED_WRITES = 1000;

// ---- Renderer (renderer/) ----
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
/** Presence: heartbeat interval and how long a silent peer stays shown. */
export const PRESENCE_HEARTBEAT_MS = 5_000;
export const PRESENCE_PEER_TTL_MS = 20_000;
/** Documents per window the core remembers the window's presence on, to say goodbye for it when its link goes. */
export const MAX_WINDOW_PRESENCE_DOCUMENTS = 100;
/** After the core failed to confirm a save, the save indicator asks again after this long. */
export const SAVE_CONFIRM_RETRY_MS = 2_000;
/** Local typing moves a document's `updatedAt` at most this often (each move is one more Automerge change). */
export const UPDATED_AT_GRANULARITY_MS = 10_000;

// ---- Relay wire (sync-relay/, main/sync/) ----
/** Peer id length on the relay wire ("<handle>:<device>"). */
export const MAX_PEER_ID_CHARS = 128;
/** A relay connection that has not sent its join frame within this bound is closed. */
export const RELAY_JOIN_TIMEOUT_MS = 10_000;
/**
 * A window's presence id (automerge-repo's random "peer-..." Repo id) belongs to the app core that first relayed it
 * (its user and peer id, across that core's reconnects, whatever socket it uses) until nobody relayed it for this
 * long; no other core's socket may speak for it before then. Far beyond PRESENCE_PEER_TTL_MS, after which every
 * client has forgotten the id; bounds the relay's memory to ids used within it.
 */
export const RELAY_PRESENCE_SENDER_TTL_MS = 60 * 60 * 1000;
/**
 * Presence sender bindings (above) a relay keeps at most; past it the least recently relayed is forgotten. Ids are
 * free to invent (each window load makes one), so without a bound an hour of them could fill the relay's memory.
 * Far above a small team's open windows.
 */
export const RELAY_MAX_PRESENCE_SENDERS = 10_000;
/**
 * Per connection, the (document, presence sender) pairs the relay remembers having relayed, so that when it cuts the
 * member off (revoked, or no longer admitted) it can say goodbye in each one's name and teammates stop showing them
 * at once rather than after PRESENCE_PEER_TTL_MS. Past it the least recently used pair is forgotten (that one then
 * leaves at the TTL). Far above a core's windows times its open plans.
 */
export const RELAY_MAX_GOODBYES_PER_CONNECTION = 1_000;
/** Relay liveness pings; a socket silent for two intervals is terminated. */
export const RELAY_KEEPALIVE_MS = 15_000;
/**
 * The app core's end of a relay socket: silent (no ping, no frame) for this many RELAY_KEEPALIVE_MS intervals, the
 * link is dead (a dead TCP link raises no error by itself) and is cut, so the reconnect backoff starts. Longer than
 * the relay's two intervals, so one late ping never cuts a link the relay still keeps.
 */
export const RELAY_CLIENT_SILENT_INTERVALS = 2.5;
/** Relay bearer tokens: random bytes before base64url encoding. */
export const RELAY_TOKEN_BYTES = 32;
/** HTTP requests from the app core to the relay (GET /v1/team) give up after this long. */
export const RELAY_HTTP_TIMEOUT_MS = 10_000;

// ---- Document snapshots (main/documents/snapshot-*.ts) ----
/** A plan document's text snapshot is rewritten at most this often per document while it changes (and on close). */
export const SNAPSHOT_WRITE_INTERVAL_MS = 500;
/**
 * How long a click waits for the snapshot before showing the document without its text ("Opening…"). The core
 * answers in a few ms; showing the document only then paints header and text in one frame, instead of spending a
 * frame (layout, raster) on an empty page while the answer waits behind it.
 */
export const OPEN_PREVIEW_WAIT_MS = 100;
/** Texts above this many UTF-8 bytes get no snapshot (it must fit a bridge frame even when JSON-escaped). */
export const MAX_SNAPSHOT_TEXT_BYTES = 512 * 1024;
/** A stored document larger than this is not handed to a window whole (readSavedDocument); it syncs instead. */
export const MAX_SAVED_DOCUMENT_BYTES = 2 * 1024 * 1024;
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
 * Per document, how many hashes of changes the relay sent on the fast path a core keeps as "the relay holds these"
 * for the sync indicator's count (main/sync/relay-received.ts). A sync round (FAST_PATH_SYNC_INTERVAL_MS) brings the
 * relay's acknowledged heads anyway; this covers what arrives meanwhile (typing at 30 ms: ~70 changes in a round, but
 * each batch's newest hash covers the batch and everything before it).
 */
export const RELAY_RECEIVED_HEADS_KEPT = 32;
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

// ---- Settings ----
/** Relay tokens are opaque printable strings; this bounds what the app stores and sends. */
export const MAX_RELAY_TOKEN_CHARS = 512;
/** A relay address longer than this is refused in Settings (it is shown in the status bar and its tooltip). */
export const MAX_RELAY_URL_CHARS = 2048;

// ---- Bounds that were literals (audit) ----
/** update_document's revision: revisions are digests this server minted (~43 characters); anything longer is not one. */
export const MAX_MCP_REVISION_CHARS = 128;
/** Largest frame on host mode's /sync socket (the renderer replica): a whole large document's sync message must fit. */
export const MAX_HOST_SYNC_FRAME_BYTES = 64 * 1024 * 1024;
/** Heads named in one call (waitSaved, history): a document state has a handful; more is not a heads list. */
export const MAX_HEADS_PER_CALL = 1024;
/** A relay wire frame's `type` (automerge-repo's are ~10 characters); longer is malformed. */
export const MAX_WIRE_FRAME_TYPE_CHARS = 64;
/** A relay wire frame's documentId (automerge-repo ids are ~28 characters); longer is malformed. */
export const MAX_WIRE_DOCUMENT_ID_CHARS = 128;
/** A feature name in a join or peer frame (ours, e.g. "fast-changes", are ~12 characters); longer is malformed. */
export const MAX_WIRE_FEATURE_NAME_CHARS = 64;
/** After the relay closes a socket, a peer that does not finish the close handshake is terminated this much later. */
export const RELAY_CLOSE_GRACE_MS = 1000;
/**
 * Distinct documents one relay session may ask for that the relay does not have (answered "doc-unavailable"); the
 * next one closes the session (1008). Each such request costs the relay a Repo handle while it is answered.
 */
export const RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION = 1024;
/** A refused sign-in is logged at most once per remote address per this interval (the rest are counted). */
export const RELAY_REFUSAL_LOG_INTERVAL_MS = 60_000;
/** Remote addresses the refusal log remembers at most (the oldest is forgotten first). */
export const RELAY_REFUSAL_LOG_MAX_ADDRESSES = 1024;

// ---- Renderer link to the core (host mode) ----
/**
 * Consecutive API-socket attempts turned away while the core's HTTP server answered (a wrong or stale per-launch
 * secret) before the window stops retrying and asks for the printed link; below it, the window keeps reconnecting.
 */
export const BRIDGE_REFUSALS_BEFORE_FATAL = 2;
/** How long the renderer waits for the core's HTTP server to answer when telling "refused" from "down". */
export const BRIDGE_PROBE_TIMEOUT_MS = 2_000;

// ---- Window outbox (renderer/src/replica/outbox-*.ts) ----
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

// ---- Relay peer id bindings (sync-relay/peer-bindings.ts) ----
/**
 * Plain peer ids (not "<handle>:<device>") bound to one relay user at most. Each binding reserves its id for that
 * user, and every fresh id a client joins with makes one; past the bound, the least recently used binding with no live
 * connection is forgotten to make room, and a join is refused (1013, try again later) only while all of them are live.
 * Far above any person's devices and reinstalls.
 */
export const RELAY_MAX_PEER_BINDINGS_PER_USER = 256;
/**
 * A plain peer id binding nobody joined or left with for this long is forgotten (unless a connection holds it right
 * now), so the id is free again and the table does not keep every id ever seen. Far beyond a laptop left in a drawer.
 */
export const RELAY_PEER_BINDING_TTL_MS = 180 * 24 * 60 * 60 * 1000;

// ---- Editor ----
/**
 * The find panel counts a query's matches up to this many ("1000+" past it): counting walks the document on every
 * edit while the panel is open, and a count past a thousand tells a person nothing more.
 */
export const MAX_FIND_MATCHES_COUNTED = 1000;

// ---- Team prefetch (main/documents/team-prefetch.ts) ----
/**
 * Teammates' plans this device fetches at once in the background so they open offline: enough to fill a list of a
 * few hundred within seconds, few enough that a device joining a team does not ask the relay for everything together.
 */
export const TEAM_PREFETCH_CONCURRENCY = 2;
