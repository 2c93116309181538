/**
 * Bounds only the relay enforces (issue #24: each bound lives with the layer that owns it; shared/limits.ts keeps
 * what crosses a boundary). Tests check each at its edge.
 */
import { MAX_RELAY_MESSAGE_BYTES } from "../shared/limits.js";

/** A revoked user's live sockets are closed within this bound (issue #2: within 5 s). */
export const RELAY_REVOCATION_BOUND_MS = 5000;
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
/** How often the relay re-reads its user table to notice revocations made by another process. */
export const RELAY_USER_POLL_MS = 1000;
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
/** Relay bearer tokens: random bytes before base64url encoding. */
export const RELAY_TOKEN_BYTES = 32;
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

/**
 * The largest body POST /v1/agent-chats reads (agent-chat-routes.ts): a registration is three short fields, well under
 * 1 KiB; anything past this is refused 413 without reading further, so no member can make the relay hold a large body.
 */
export const RELAY_MAX_AGENT_CHAT_BODY_BYTES = 4 * 1024;
/**
 * Relay-token users the relay records as speaking for a GitHub login (sync-relay/token-links.ts): one row per token
 * user, so the table is bounded by the relay's users; this caps it (and the chat guard's map of links) even so. The
 * next new link past it is refused 409 'too-large'; a link already held is still answered.
 */
export const RELAY_MAX_TOKEN_LINKS = 10_000;

/**
 * People whose stars document a team registers at the relay (agent-stars-owners.ts): one row per person of the team
 * who turned agent chat on, so it is bounded by the team's people; this caps it (and the chat guard's map) even so.
 * The next new registration past it is refused 409 'too-large'; one already held is still answered.
 */
export const RELAY_MAX_AGENT_STARS_OWNERS = 10_000;
