/**
 * Bounds only the app core enforces, for every main/ folder (issue #24: each bound lives with the layer that owns it;
 * shared/limits.ts keeps what crosses a boundary). Tests check each at its edge.
 */
/** A document listing returns at most this many entries per call. */
export const MAX_LIST_DOCUMENTS = 1000;
/** A body match in the document list shows at most this many characters of text either side of the hit. */
export const SEARCH_SNIPPET_CONTEXT_CHARS = 40;

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

export const MCP_PATH = "/mcp";
export const MAX_MCP_ID_CHARS = 128;
export const MAX_MCP_IDEMPOTENCY_KEY_CHARS = 128;
/** Request body cap for /mcp: 3 × 256 KiB, as in the prototype. */
export const MAX_MCP_REQUEST_BYTES = 3 * 256 * 1024;
/**
 * How much of an over-cap /mcp body is read and thrown away before the 413 is sent: a client still uploading when
 * the connection closes under it sees a network error ("fetch failed") instead of the answer. Past this, the
 * connection is closed at once (an upload this large is not an agent's request).
 */
export const MAX_MCP_DRAINED_BYTES = 32 * 1024 * 1024;
/**
 * A refused request's params are named by their path (params.capabilities.experimental.<key>): keys are the agent's
 * own text, so the error sentence shows at most this much of a path.
 */
export const MAX_MCP_PARAMS_PATH_CHARS = 120;
/** Such a refusal lists at most this many of the schema's complaints in `data.details.issues` (the sentence names one). */
export const MAX_MCP_PARAMS_ISSUES_LISTED = 10;

/** Reconnect backoff to the relay: first retry and cap. */
export const RELAY_RECONNECT_MIN_MS = 250;
export const RELAY_RECONNECT_MAX_MS = 10_000;
/** User access tokens (8 h) are refreshed this long before they expire. */
export const GITHUB_TOKEN_REFRESH_LEAD_MS = 5 * 60 * 1000;
/** After a failed refresh (network, outage) the next attempt waits this long, while the token is still valid. */
export const GITHUB_TOKEN_REFRESH_RETRY_MS = 30_000;
/**
 * A supplied GitHub token (CHOPIN_GITHUB_TOKEN) longer than this is refused unsent: GitHub's tokens are well under it
 * (it advises room for 255 characters), so a longer value is a pasted mistake, not a token.
 */
export const MAX_GITHUB_SUPPLIED_TOKEN_CHARS = 1024;
/** GitHub's device flow asks for at least this poll interval; `slow_down` adds the same amount again. */
export const GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS = 5_000;
/** Permission facts (admitted, push/admin, installation access) are trusted for at most this long. */
export const GITHUB_PERMISSION_FACT_MAX_AGE_MS = 30_000;
/** Installations and repositories listed for the binding picker, per call. */
export const MAX_GITHUB_INSTALLATIONS_LISTED = 100;
export const MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED = 500;

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

/** Largest API frame the host-mode bridge accepts from a page. */
export const MAX_BRIDGE_FRAME_BYTES = 4 * 1024 * 1024;
/** Length in bytes of the per-launch secret that guards host mode's sockets. */
export const HOST_SECRET_BYTES = 32;

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
/** Documents per window the core remembers the window's presence on, to say goodbye for it when its link goes. */
export const MAX_WINDOW_PRESENCE_DOCUMENTS = 100;
/**
 * The app core's end of a relay socket: silent (no ping, no frame) for this many RELAY_KEEPALIVE_MS intervals, the
 * link is dead (a dead TCP link raises no error by itself) and is cut, so the reconnect backoff starts. Longer than
 * the relay's two intervals, so one late ping never cuts a link the relay still keeps.
 */
export const RELAY_CLIENT_SILENT_INTERVALS = 2.5;
/** HTTP requests from the app core to the relay (GET /v1/team) give up after this long. */
export const RELAY_HTTP_TIMEOUT_MS = 10_000;

/** A plan document's text snapshot is rewritten at most this often per document while it changes (and on close). */
export const SNAPSHOT_WRITE_INTERVAL_MS = 500;
/** Texts above this many UTF-8 bytes get no snapshot (it must fit a bridge frame even when JSON-escaped). */
export const MAX_SNAPSHOT_TEXT_BYTES = 512 * 1024;
/** A stored document larger than this is not handed to a window whole (readSavedDocument); it syncs instead. */
export const MAX_SAVED_DOCUMENT_BYTES = 2 * 1024 * 1024;
/**
 * Per document, how many hashes of changes the relay sent on the fast path a core keeps as "the relay holds these"
 * for the sync indicator's count (main/sync/relay-received.ts). A sync round (FAST_PATH_SYNC_INTERVAL_MS) brings the
 * relay's acknowledged heads anyway; this covers what arrives meanwhile (typing at 30 ms: ~70 changes in a round, but
 * each batch's newest hash covers the batch and everything before it).
 */
export const RELAY_RECEIVED_HEADS_KEPT = 32;

/** Relay tokens are opaque printable strings; this bounds what the app stores and sends. */
export const MAX_RELAY_TOKEN_CHARS = 512;
/** A relay address longer than this is refused in Settings (it is shown in the status bar and its tooltip). */
export const MAX_RELAY_URL_CHARS = 2048;

/** update_document's revision: revisions are digests this server minted (~43 characters); anything longer is not one. */
export const MAX_MCP_REVISION_CHARS = 128;
/** Largest frame on host mode's /sync socket (the renderer replica): a whole large document's sync message must fit. */
export const MAX_HOST_SYNC_FRAME_BYTES = 64 * 1024 * 1024;
/** Heads named in one call (waitSaved, history): a document state has a handful; more is not a heads list. */
export const MAX_HEADS_PER_CALL = 1024;

/**
 * Teammates' plans this device fetches at once in the background so they open offline: enough to fill a list of a
 * few hundred within seconds, few enough that a device joining a team does not ask the relay for everything together.
 */
export const TEAM_PREFETCH_CONCURRENCY = 2;
/** GitHub answers at most this many items per page of a list; we ask for full pages to make fewest requests. */
export const GITHUB_MAX_PAGE_SIZE = 100;
/** An owning app renews its Planner lease this often (well within PLANNER_LEASE_TTL_MS). */
export const PLANNER_LEASE_RENEW_EVERY_MS = 10_000;
/** An owning app stops acting this long before its lease could have ended at the relay. */
export const PLANNER_LEASE_STOP_MARGIN_MS = 5_000;
/** A lease request the relay does not answer within this long is given up (the claim or renewal did not happen here). */
export const PLANNER_LEASE_REQUEST_TIMEOUT_MS = 10_000;
/**
 * When a Planner lease ends while messages to it wait, the app of the person whose message waits longest claims at
 * once; another app with a waiting message claims only if the channel is still unowned this long after.
 */
export const PLANNER_WAITING_CLAIM_STAGGER_MS = 3_000;
/** Quitting waits at most this long for the relay to confirm the Planner's release; otherwise the lease expires there. */
export const PLANNER_RELEASE_ON_QUIT_WAIT_MS = 2_000;
/**
 * A Planner write prepared while the link to the lease's keeper is down waits this long for it before it is given up
 * as unreachable. Safe at any length: the keeper's fence refuses it if its generation has passed meanwhile.
 */
export const PLANNER_FENCED_WRITE_LINK_WAIT_MS = 30_000;
/**
 * At start and after a sign-in, the app looks for its person's messages still waiting for the Planner in at most this
 * many plans (those it sent in most recently), so a long history never makes it open every conversation at once.
 */
export const PLANNER_RESUME_MAX_PLANS = 50;

// ---- The Planner's context (issue #26; the seed's "Conversation context") ----
/** A turn sees the messages since the last turn, at most this many entries... */
export const PLANNER_BACKSCROLL_MAX_ENTRIES = 40;
/** ...and normally at most this many characters of them (the newest message is kept whole even when it alone is more). */
export const PLANNER_BACKSCROLL_MAX_CHARS = 8_000;
/** A recreated session is given at most this many of the latest entries since the session began... */
export const PLANNER_BOOTSTRAP_MAX_ENTRIES = 100;
/** ...and at most this many characters of them. */
export const PLANNER_BOOTSTRAP_MAX_CHARS = 50_000;
/** One edit_plan call changes the plan in 1 to this many operations... */
export const MAX_PLAN_EDIT_OPERATIONS = 50;
/** ...carrying at most this many characters of Markdown in all. */
export const MAX_PLAN_EDIT_CHARS = 100_000;
/** After its fenced write is accepted, the Planner's edit_plan waits at most this long for the change to come back here. */
export const PLANNER_WRITE_ARRIVAL_WAIT_MS = 10_000;
/** The model the Planner asks for on the Copilot provider unless the app is told another. */
export const PLANNER_COPILOT_MODEL = "gpt-4.1";

/** A running turn's progress goes to teammates' apps at most this often (its end at once): a stream, not a flood. */
export const PLANNER_TURN_SHARE_EVERY_MS = 150;
/** The most of a running turn's text sent to teammates' apps: its last characters (the whole answer is the entry). */
export const PLANNER_TURN_SHARE_MAX_TEXT_CHARS = 16_000;
/** The most tool calls of a running turn sent to teammates' apps (the latest ones). */
export const PLANNER_TURN_SHARE_MAX_TOOLS = 50;
/** The longest note of a tool call sent to teammates' apps. */
export const PLANNER_TURN_SHARE_MAX_NOTE_CHARS = 500;

/** A Planner provider's address (Settings or --planner-base-url): as long as any URL a person types. */
export const MAX_PLANNER_PROVIDER_URL_CHARS = 2048;
/** A Planner provider's model name ("gpt-4.1", a deployment name). */
export const MAX_PLANNER_MODEL_CHARS = 200;
/** A Planner provider's API key: far above any provider's keys, far below anything that could hurt. */
export const MAX_PLANNER_API_KEY_CHARS = 4096;

/** References a Planner session retains (the latest ones given to it): read_reference reads only these. */
export const PLANNER_SESSION_MAX_REFERENCES = 20;
/** The most of a referenced document read_reference returns: its first characters, the rest said to be cut. */
export const PLANNER_REFERENCE_MAX_CHARS = 50_000;

/**
 * Agent chats' outbox (issue #27, main/store/agent-chat-outbox.ts): a person's sends not delivered yet (waiting, or
 * refused for good and kept until sent again) that this device keeps at most; the next send is refused 'too-large'. A
 * team whose relay is never reached cannot grow the table without end.
 */
export const MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON = 200;
/**
 * Delivered sends whose rows this device keeps (the newest), so a retry of one finds its row and its conversation
 * entry; an older retry is delivered again, which the conversation's own key makes the same entry.
 */
export const AGENT_CHAT_DELIVERED_ROWS_KEPT = 1000;

/**
 * Chat visits this device keeps per scope and person for the sidebar's recents (issue #27), the most recent: above
 * MAX_AGENT_STARS + AGENT_SIDEBAR_RECENTS, so every star can be taken away and four recents still show.
 */
export const MAX_AGENT_CHAT_VISITS = 32;

/**
 * A team chat the relay could not register (issue #27: main/agent-chat/agent-chat-registry.ts) is tried again after
 * the first bound, doubling up to the second, and at once whenever the relay link connects: registration is never
 * urgent (the chat works without it; only teammates' listing waits for it), so a relay that is down costs one
 * request a minute at most.
 */
export const AGENT_CHAT_REGISTER_RETRY_MIN_MS = 1_000;
export const AGENT_CHAT_REGISTER_RETRY_MAX_MS = 60_000;
/**
 * A relay token added or changed is linked to the person's GitHub login at the relay (their chats registered again)
 * before the relay link speaks with it, so the relay's chat guard never drops the person's own writes on a token it
 * cannot tie to them yet; a relay that does not answer within this holds the link up no longer (the link goes on and
 * registration keeps retrying as ever).
 */
export const AGENT_CHAT_RELINK_WAIT_MS = 5_000;
