/**
 * Every bound the product enforces, named once. Code elsewhere imports these; tests check each at its edge.
 * Values come from the seeds and the public prototype's limits (../shared/reference/chopin.md §2) unless noted.
 */

// ---- Documents ----
/** Title length in characters (prototype: titles 1–120). */
export const MAX_TITLE_CHARS = 120;
/** Canonical Markdown source of one document, in UTF-8 bytes (prototype: 256 KiB canonical source). */
export const MAX_DOCUMENT_MARKDOWN_BYTES = 256 * 1024;
/** Title used when a person creates a document without naming it. */
export const DEFAULT_DOCUMENT_TITLE = "Untitled plan";
/** A document listing returns at most this many entries per call. */
export const MAX_LIST_DOCUMENTS = 1000;
/** Search query length accepted by the document list. */
export const MAX_SEARCH_QUERY_CHARS = 200;

// ---- Version history ----
/** Consecutive changes by one author closer together than this form one version in the history panel. */
export const VERSION_GROUP_GAP_MS = 5 * 60 * 1000;
/** The history panel lists at most this many versions (newest first). */
export const MAX_VERSIONS_LISTED = 500;

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
/** MCP client name recorded in provenance. */
export const MAX_MCP_CLIENT_NAME_CHARS = 128;

// ---- Relay ----
/** Largest single WebSocket message the relay accepts; larger frames close the socket with 1009. */
export const MAX_RELAY_MESSAGE_BYTES = 16 * 1024 * 1024;
/** A revoked user's live sockets are closed within this bound (issue #2: within 5 s). */
export const RELAY_REVOCATION_BOUND_MS = 5000;
/** How often the relay re-reads its user table to notice revocations made by another process. */
export const RELAY_USER_POLL_MS = 1000;
/** A document nobody touched for this long is evicted from relay memory (it stays in storage). */
export const RELAY_IDLE_EVICT_MS = 60_000;
/** How often the relay looks for idle documents. */
export const RELAY_EVICT_SWEEP_MS = 10_000;
/** Handle (user name) shape at the relay. */
export const MAX_HANDLE_CHARS = 39;

// ---- Client sync ----
/** Reconnect backoff to the relay: first retry and cap. */
export const RELAY_RECONNECT_MIN_MS = 250;
export const RELAY_RECONNECT_MAX_MS = 10_000;

// ---- Display ----
export const MAX_DISPLAY_NAME_CHARS = 80;
