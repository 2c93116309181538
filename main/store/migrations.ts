/**
 * The local database's schema, as an ordered list of forward-only steps. Step N moves `user_version` from N to N+1.
 * Never edit or reorder a shipped step: installations already ran it. Add a new step at the end instead.
 * Identity and idempotency live in constraints (PRIMARY KEY, CHECK), so a bug in code cannot write a duplicate.
 * Automerge chunk storage is NOT here: the SQLite storage adapter owns its own table in the same file.
 */
import type { Migration } from "../../shared/node/sqlite-migrate.js";
import { PLANNER_LEASE_TABLE_SQL } from "../../shared/node/planner-leases.js";
import { AGENT_CHAT_TABLE_SQL } from "../../shared/node/agent-chat-table.js";

export const LOCAL_DB_MIGRATIONS: readonly Migration[] = [
  // 0 -> 1: settings, the device's record of shared documents, MCP replays.
  `
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE document_sharing (
    document_id TEXT PRIMARY KEY NOT NULL,
    shared      INTEGER NOT NULL CHECK (shared IN (0, 1)),
    shared_at   INTEGER
  ) STRICT;

  CREATE TABLE mcp_replays (
    idempotency_key TEXT PRIMARY KEY NOT NULL,
    tool            TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    result_json     TEXT NOT NULL,
    created_at      INTEGER NOT NULL
  ) STRICT;
  `,
  // 1 -> 2: the last materialized text of each plan document, so a large document paints before Automerge loads it.
  // A cache: losing a row costs a slower open, never data. heads = JSON array of sorted hex change hashes.
  `
  CREATE TABLE document_snapshots (
    document_id TEXT PRIMARY KEY NOT NULL,
    heads       TEXT NOT NULL,
    title       TEXT NOT NULL,
    text        TEXT NOT NULL,
    saved_at    INTEGER NOT NULL
  ) STRICT;
  `,
  // 2 -> 3: each snapshot's text folded for search (shared/search-fold.ts: case and accents ignored, one code point
  // for one), so a search compares in SQLite without folding every text again. NULL until filled: openLocalDb fills
  // what is missing, and writeSnapshot writes it with the text.
  `
  ALTER TABLE document_snapshots ADD COLUMN folded TEXT;
  `,
  // 3 -> 4: shared documents a teammate deleted from the team's list while this device held them. They stay listed
  // here as private copies (never lost from view); the row says when, so the document can say why it is private now.
  `
  CREATE TABLE team_removals (
    document_id TEXT PRIMARY KEY NOT NULL,
    removed_at  INTEGER NOT NULL
  ) STRICT;
  `,
  // 4 -> 5: the stored chunks of plans removed from this device because they could not be read
  // (main/documents/damaged-removal.ts). Kept for recovery, never read by the app; key is the chunk's storage key
  // (parts joined by "/"). No unique key: a plan set aside twice keeps both sets of bytes.
  `
  CREATE TABLE damaged_chunks (
    seq          INTEGER PRIMARY KEY,
    document_id  TEXT NOT NULL,
    key          TEXT NOT NULL,
    data         BLOB NOT NULL,
    set_aside_at INTEGER NOT NULL
  ) STRICT;
  `,
  // 5 -> 6: MCP sessions (main/mcp/sessions.ts): the client name an initialize gave, kept across restarts so an agent
  // that stays connected while the app restarts keeps its name in provenance; at most MAX_MCP_SESSIONS rows.
  `
  CREATE TABLE mcp_sessions (
    session_id  TEXT PRIMARY KEY NOT NULL,
    client_name TEXT NOT NULL,
    opened_at   INTEGER NOT NULL
  ) STRICT;
  `,
  // 6 -> 7: a share belongs to one relay (issue #23). Each row says which relay's team the document is shared with
  // (its address, and the team index id once the relay named it: '' until then), whether this device shared it or
  // took it from that team's list when it did not hold it, and when this device first saw it on that team's list (a
  // row seen there whose entry is gone was removed by a teammate). Old rows belong to the relay configured now; with
  // none configured they belonged to no team and go. The relay token is tied to the address it was given for, and
  // plans fetched from the current team before this step (listed there, held here, never in the local index) are
  // adopted as that team's at the first attach of its list (sharing.adoptHeldFor).
  `
  CREATE TABLE relay_shares (
    document_id   TEXT NOT NULL,
    relay_url     TEXT NOT NULL,
    team_index_id TEXT NOT NULL DEFAULT '',
    origin        TEXT NOT NULL CHECK (origin IN ('here', 'team')),
    shared_at     INTEGER NOT NULL,
    entered_at    INTEGER,
    PRIMARY KEY (document_id, relay_url)
  ) STRICT;
  CREATE INDEX relay_shares_by_relay ON relay_shares (relay_url, team_index_id);

  INSERT INTO relay_shares (document_id, relay_url, team_index_id, origin, shared_at, entered_at)
    SELECT s.document_id, u.value, COALESCE(t.value, ''), 'here', COALESCE(s.shared_at, 0), NULL
      FROM document_sharing s
      JOIN settings u ON u.key = 'settings.relayUrl'
      LEFT JOIN settings t ON t.key = 'relay.teamIndexId:' || u.value
     WHERE s.shared = 1;
  DROP TABLE document_sharing;

  INSERT INTO settings (key, value)
    SELECT 'settings.relayTokenUrl', u.value FROM settings u
     WHERE u.key = 'settings.relayUrl'
       AND EXISTS (SELECT 1 FROM settings WHERE key IN ('settings.relayToken', 'settings.relayTokenEncrypted'));
  INSERT INTO settings (key, value)
    SELECT 'sharing.adoptHeldFor', value FROM settings WHERE key = 'settings.relayUrl';
  `,
  // 7 -> 8: conversations (issue #25). What this device sent and the change that carried it, so a message shows as not
  // yet delivered until the relay acknowledges that change (also across a restart while offline); the composer's
  // draft per plan; and how far the person has read each conversation (the entry they last saw, by its causal place).
  `
  CREATE TABLE conversation_outbox (
    plan_id     TEXT NOT NULL,
    entry_id    TEXT NOT NULL,
    change_hash TEXT NOT NULL,
    sent_at     INTEGER NOT NULL,
    PRIMARY KEY (plan_id, entry_id)
  ) STRICT;
  CREATE TABLE conversation_drafts (
    plan_id    TEXT PRIMARY KEY NOT NULL,
    text       TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE conversation_reads (
    plan_id  TEXT PRIMARY KEY NOT NULL,
    seq      INTEGER NOT NULL,
    at       REAL NOT NULL,
    entry_id TEXT NOT NULL
  ) STRICT;
  `,
  // 8 -> 9: Planner leases of this device's local-only plans (issue #25): the relay keeps shared plans' leases, this
  // table the rest, with the same columns and the same code (shared/node/planner-leases.ts).
  (db) => db.exec(PLANNER_LEASE_TABLE_SQL),
  // 9 -> 10: agent chats' outbox (issue #27, main/store/agent-chat-outbox.ts): one row per send from this device, in
  // send order (seq, never reused). client_request_id is UNIQUE: a retried send finds its row, never a second one. The
  // chat is (scope, agent, person); a scope 'pending' names the relay whose team was not known yet when it was queued.
  // A row is delivered (its conversation entry and when), or not yet (the last refusal, and failed_at once refused for
  // good). 65536 is MAX_MESSAGE_BYTES and 128 MAX_CLIENT_REQUEST_ID_CHARS (a shipped step keeps its literals; the
  // table's test checks they agree).
  `
  CREATE TABLE agent_chat_outbox (
    seq               INTEGER PRIMARY KEY AUTOINCREMENT,
    client_request_id TEXT NOT NULL UNIQUE CHECK (length(client_request_id) BETWEEN 1 AND 128),
    scope_kind        TEXT NOT NULL CHECK (scope_kind IN ('device', 'team', 'pending')),
    scope_id          TEXT NOT NULL,
    agent_id          TEXT NOT NULL,
    person            TEXT NOT NULL,
    text              TEXT NOT NULL CHECK (length(CAST(text AS BLOB)) BETWEEN 1 AND 65536),
    queued_at         INTEGER NOT NULL,
    entry_id          TEXT,
    delivered_at      INTEGER,
    error_code        TEXT,
    error_message     TEXT,
    failed_at         INTEGER,
    CHECK ((entry_id IS NULL) = (delivered_at IS NULL)),
    CHECK ((error_code IS NULL) = (error_message IS NULL)),
    CHECK (failed_at IS NULL OR (delivered_at IS NULL AND error_code IS NOT NULL))
  ) STRICT;
  CREATE INDEX agent_chat_outbox_undelivered ON agent_chat_outbox (person, seq) WHERE delivered_at IS NULL;
  `,
  // 10 -> 11: the agent chats this device showed (issue #27), per profiles scope ('team:<index id>' or 'device:<id>') and
  // person, for the sidebar's recents: one row per chat (the constraint, not the code, keeps it one), `seq` the order
  // of visits on this device (no clock), at most MAX_AGENT_CHAT_VISITS rows per scope and person. Never synced. IF NOT
  // EXISTS, as planner_leases': a table of its own, so the step is harmless wherever it finds one already.
  `
  CREATE TABLE IF NOT EXISTS agent_chat_visits (
    scope      TEXT NOT NULL,
    person     TEXT NOT NULL,
    agent_id   TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    visited_at INTEGER NOT NULL,
    PRIMARY KEY (scope, person, agent_id)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS agent_chat_visits_by_seq ON agent_chat_visits (scope, person, seq);
  `,
  // 11 -> 12: agent chats of this device's own scope (issue #27): the relay keeps a team's, this table the device's,
  // with the same columns, constraints and code (shared/node/agent-chat-table.ts). Team is "device:<id>".
  (db) => db.exec(AGENT_CHAT_TABLE_SQL),
  // 12 -> 13: plan handoffs from agent chats (issue #27, main/store/plan-handoffs.ts). One row per handoff key in a chat
  // (the agent's tool call: its turn and arguments; the person's action: their clientRequestId), naming the plan it
  // makes before that plan is made: the PRIMARY KEY gives a retried handoff, also after a restart in the middle, the
  // same plan id, and UNIQUE(document_id) keeps two handoffs from naming one plan. committed_at: the plan was stored and
  // listed (a committed handoff whose plan is gone is not made again).
  `
  CREATE TABLE IF NOT EXISTS plan_handoffs (
    chat_plan_id TEXT NOT NULL,
    handoff_key  TEXT NOT NULL,
    document_id  TEXT NOT NULL UNIQUE,
    reserved_at  INTEGER NOT NULL,
    committed_at INTEGER,
    PRIMARY KEY (chat_plan_id, handoff_key)
  ) STRICT;
  `,
];
