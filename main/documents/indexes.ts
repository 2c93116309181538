/**
 * The two workspace indexes a device keeps and the share state derived from them.
 * - Local index: every document this device made or keeps; its id lives in settings; it is NEVER shared.
 * - Team index: the list of the configured relay's team; its id comes from the relay (`setTeamHandle`); it IS shared.
 * Whether a plan is shared is this device's own record (share-records.ts), never the team's list: a teammate's entry
 * for a plan this device holds is ignored (the plan stays private; its page says a teammate listed it), and an entry for
 * a plan this device does not hold makes a 'team' record before anything asks the relay for it. A share made before
 * the team index is known is entered when it arrives (`reconcile`); a share seen on the list whose entry is gone was
 * removed by a teammate (`teamEntriesGone`): it stops being shared at once.
 * What must stay true: a share or a removal asked for through the API writes its SQLite records first, whole, and
 * changes an index only once they are written; a database that refuses them (a full disk) gets a 'storage-failure'
 * saying nothing changed, and nothing did. A teammate's removal is never refused (team-removal-records.ts). Nothing in
 * the team's list ever makes a document this device holds leave it.
 */
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { Database } from "better-sqlite3";
import { ChopinError } from "../../shared/errors.js";
import type { IndexEntry, WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { writeWhole } from "../util/save-failure.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";
import { ShareRecords } from "./share-records.js";
import { LOST_LOCAL_INDEX_SETTING, rebuildLocalIndex, type IndexRecovery } from "./index-recovery.js";
import { forgetTeamRemoval, teamRemovalOf } from "../store/team-removals.js";
import { TeamRemovalRecords } from "./team-removal-records.js";
import {
  ensureIndexShape,
  hasEntry,
  newIndex,
  readEntries,
  removeEntry,
  upsertEntry,
  type IndexHandle,
} from "./workspace-index.js";

export const LOCAL_INDEX_SETTING = "documents.localIndexId";
/** Set by local schema 7 to the relay configured then: its team's plans held here are adopted at its list's first attach. */
export const ADOPT_HELD_SETTING = "sharing.adoptHeldFor";

export interface ListedEntry {
  entry: IndexEntry;
  shared: boolean;
}

/** Where a record the database refused in the background is said, and how soon it is tried again. */
export interface IndexRecordOptions {
  onFault?: (failure: ChopinError) => void;
  retryMs?: number;
  /** Whether this device holds the document (loaded or stored): then the team's list never makes it shared. */
  held?: (id: string) => boolean;
  now?: () => number;
}

export class Indexes {
  readonly local: IndexHandle;
  #team: IndexHandle | null = null;
  #expectedTeamId: string | null = null;
  readonly #db: Database;
  /** Deleted on this device this session: their own removal from the team index is not a teammate's. */
  readonly #deletedHere = new Set<string>();
  readonly #removals: TeamRemovalRecords;
  readonly #shares: ShareRecords;
  readonly #held: (id: string) => boolean;
  readonly #now: () => number;

  /** Set when the local index named in settings did not load and a rebuilt one replaced it at this start. */
  readonly recovery: IndexRecovery | null;

  private constructor(local: IndexHandle, db: Database, recovery: IndexRecovery | null, records: IndexRecordOptions) {
    this.local = local;
    this.#db = db;
    this.recovery = recovery;
    this.#removals = new TeamRemovalRecords(db, records.onFault, records.retryMs);
    this.#shares = new ShareRecords(db);
    this.#held = records.held ?? (() => false);
    this.#now = records.now ?? Date.now;
  }

  /**
   * Opens the local index named in settings, creating (and recording) it on first run. When the named index does not
   * load, a new one is rebuilt from the plans in storage (`storedIds`: the ids of every stored document) before it is
   * recorded, so no private plan drops out of the list; the unreadable one's id is kept (index-recovery.ts).
   */
  static async open(
    repo: Repo,
    db: Database,
    storedIds: () => readonly string[] = () => [],
    records: IndexRecordOptions = {},
  ): Promise<Indexes> {
    const storedId = getSetting(db, LOCAL_INDEX_SETTING);
    let local: IndexHandle | null = null;
    let recovery: IndexRecovery | null = null;
    if (storedId) {
      try {
        local = await repo.find<WorkspaceIndex>(storedId as DocumentId);
      } catch {
        local = null;
      }
    }
    if (!local) {
      local = repo.create<WorkspaceIndex>(newIndex("local"));
      ensureIndexShape(local);
      if (storedId) {
        const rebuilt = await rebuildLocalIndex(repo, local, storedIds().filter((id) => id !== storedId));
        recovery = { unreadableIndexId: storedId, ...rebuilt };
        setSetting(db, LOST_LOCAL_INDEX_SETTING, storedId);
      }
      setSetting(db, LOCAL_INDEX_SETTING, local.documentId);
    }
    ensureIndexShape(local);
    return new Indexes(local, db, recovery, records);
  }

  /** Stops retrying records the database refused (the database is about to close). */
  close(): void {
    this.#removals.close();
  }

  get team(): IndexHandle | null {
    return this.#team;
  }

  /** Both indexes' document ids (the team index's once it is loaded). */
  documentIds(): DocumentId[] {
    return this.#team ? [this.local.documentId, this.#team.documentId] : [this.local.documentId];
  }

  isIndex(id: string): boolean {
    return id === this.local.documentId || id === this.#team?.documentId;
  }

  /** Whether either index lists the document (cheap: no validation of other entries). */
  knows(id: string): boolean {
    return hasEntry(this.local, id) || (!!this.#team && hasEntry(this.#team, id));
  }

  /**
   * What the core's share policy asks for every message of the relay link: the team index of the configured relay, or
   * a document this device's own record shares with that relay's team. The local index never.
   */
  isShared(id: string): boolean {
    if (id === this.local.documentId) return false;
    // The team index is shared from the moment its id is known, so the relay may deliver it to our find().
    if (id === this.#expectedTeamId) return true;
    if (this.#team && id === this.#team.documentId) return true;
    return this.#sharedHere(id);
  }

  /** The share record, unless a teammate's removal not on disk yet is to remove it (and outweighs it meanwhile). */
  #sharedHere(id: string): boolean {
    return this.#removals.unwritten(id) === undefined && this.#shares.has(id);
  }

  /** The relay address shares belong to now (null: none). Another relay's shares and list stop counting at once. */
  setRelay(url: string | null): void {
    if (this.#shares.scope?.url === url) return;
    // Another relay's team index is not this one's: it must neither sync to the new relay nor list anything.
    this.#team = null;
    this.#expectedTeamId = null;
    this.#shares.setRelay(url);
  }

  /** The configured relay's address, or null. */
  get relayUrl(): string | null {
    return this.#shares.scope?.url ?? null;
  }

  /**
   * A teammate's entry for a plan this device keeps private: listed on the team's list, held here, in the local index,
   * not shared by this device's record. Offered to the person, never acted on.
   */
  listedByTeammate(id: string): boolean {
    return !!this.#team && hasEntry(this.#team, id) && hasEntry(this.local, id) && !this.#sharedHere(id);
  }

  /** Names the team index before it is loaded (`confirmed`: the relay itself just named it); null forgets it. */
  expectTeam(id: string | null, confirmed = false): void {
    this.#expectedTeamId = id;
    this.#shares.setTeam(id, confirmed);
  }

  setTeamHandle(handle: IndexHandle | null): void {
    if (handle) ensureIndexShape(handle);
    this.#team = handle;
    if (!handle) this.#expectedTeamId = null;
  }

  /**
   * Brings the records and the attached team index together: every share this device made that the list does not name
   * yet is entered (`load` gives its entry, null when the plan is gone); every share seen on the list whose entry is
   * gone was removed by a teammate; every listed plan this device does not hold becomes the team's. Returns the ids
   * entered into the list and the ids a teammate removed.
   */
  async reconcile(load: (id: DocumentId) => Promise<IndexEntry | null>): Promise<{ entered: string[]; removed: string[] }> {
    const team = this.#team;
    if (!team) return { entered: [], removed: [] };
    this.#adoptHeldOnce(team);
    const removed = this.teamEntriesGone(this.#shares.all().map((row) => row.documentId));
    this.teamEntriesSeen(this.teamIds());
    const entered: string[] = [];
    for (const row of this.#shares.all()) {
      if (row.enteredAt !== null || hasEntry(team, row.documentId) || this.#removals.unwritten(row.documentId) !== undefined) continue;
      const entry = await load(row.documentId as DocumentId);
      if (!entry || this.#team !== team || !this.#shares.has(row.documentId)) continue;
      if (upsertEntry(team, row.documentId, entry)) entered.push(row.documentId);
      this.#markEntered(row.documentId);
    }
    return { entered, removed };
  }

  /**
   * The team's list names these ids (new or changed entries): a share of this device is marked as seen there, and a
   * plan this device does not hold becomes the team's (recorded before anything asks the relay for it). A plan held
   * here without a record stays private, whatever the entry says.
   */
  teamEntriesSeen(ids: readonly string[]): void {
    const team = this.#team;
    if (!team || !this.#shares.scope) return;
    for (const id of ids) {
      if (!hasEntry(team, id) || this.isIndex(id)) continue;
      if (this.#shares.has(id)) {
        this.#markEntered(id);
        continue;
      }
      if (this.#removals.unwritten(id) !== undefined || this.#deletedHere.has(id) || hasEntry(this.local, id) || this.#held(id)) continue;
      try {
        this.#shares.record(id, "team", this.#now(), this.#now());
      } catch {
        // Not recorded (a full disk): the plan is not fetched; the next change of the list tries again.
      }
    }
  }

  /**
   * These ids may have left the team's list: each one this device had seen there, and still records as shared, was
   * removed by a teammate. It stops being shared at once (in memory first, then on disk: team-removal-records.ts).
   * Returns those ids.
   */
  teamEntriesGone(ids: readonly string[]): string[] {
    const team = this.#team;
    const url = this.#shares.scope?.url;
    if (!team || !url) return [];
    const gone: string[] = [];
    for (const id of ids) {
      const row = this.#shares.get(id);
      if (!row || row.enteredAt === null || hasEntry(team, id) || this.#deletedHere.has(id)) continue;
      this.#shares.drop(id);
      this.#removals.record(id, this.#now(), url);
      gone.push(id);
    }
    return gone;
  }

  /**
   * The team index changed: `touched` are the ids its patches named (null: unknown, e.g. a change with no patches or a
   * whole-list replacement), each looked at for a new team plan or a teammate's removal. Returns the ids removed.
   */
  teamListChanged(touched: readonly string[] | null): string[] {
    const everyShare = this.#shares.all().map((row) => row.documentId);
    const gone = this.teamEntriesGone(touched ?? everyShare);
    this.teamEntriesSeen(touched ?? this.teamIds());
    return gone;
  }

  #markEntered(id: string): void {
    try {
      this.#shares.markEntered(id, this.#now());
    } catch {
      // Written at the next sighting; until then the share is treated as not yet entered (it is entered again).
    }
  }

  /** Plans fetched from this team before shares had records (local schema 7): adopted once, as the team's. */
  #adoptHeldOnce(team: IndexHandle): void {
    const url = this.#shares.scope?.url;
    if (!url || getSetting(this.#db, ADOPT_HELD_SETTING) !== url) return;
    try {
      for (const id of this.teamIds()) {
        if (this.#shares.has(id) || hasEntry(this.local, id) || !hasEntry(team, id)) continue;
        this.#shares.record(id, "team", this.#now(), this.#now());
      }
      deleteSetting(this.#db, ADOPT_HELD_SETTING);
    } catch {
      // Tried again at the next attach.
    }
  }

  /** The ids the team index names (none while it is not loaded); entries are not validated here. */
  teamIds(): string[] {
    const documents = (this.#team?.doc() as Partial<WorkspaceIndex> | undefined)?.documents;
    return documents && typeof documents === "object" ? Object.keys(documents) : [];
  }

  /**
   * Both indexes as one list: the local index's plans, and the team's plans this device shares by its own record (a
   * plan in both reports the fresher entry). A team entry for a plan this device keeps private never lends it a title
   * or a shared mark.
   */
  list(): Map<string, ListedEntry> {
    const out = new Map<string, ListedEntry>();
    for (const [id, entry] of readEntries(this.local)) out.set(id, { entry, shared: this.isShared(id) });
    if (this.#team) {
      for (const [id, entry] of readEntries(this.#team)) {
        if (!this.#sharedHere(id)) continue;
        const seen = out.get(id);
        if (!seen || entry.updatedAt > seen.entry.updatedAt) out.set(id, { entry, shared: true });
      }
    }
    return out;
  }

  /**
   * Enters a new document: always in the local index, in the team index too when shared. A share whose record is
   * refused ('storage-failure') enters it nowhere.
   */
  add(id: string, entry: IndexEntry, shared: boolean, now: number): void {
    if (shared) this.share(id, entry, now);
    upsertEntry(this.local, id, entry);
  }

  /**
   * Records the share with the configured relay's team durably, then enters it into the team index when one is known
   * ('no-relay' with none configured, 'storage-failure' if refused).
   */
  share(id: string, entry: IndexEntry, now: number): void {
    if (!this.#shares.scope) throw new ChopinError("no-relay", "No team relay is configured, so this document cannot be shared yet: configure a team relay in Settings first.");
    const team = this.#team;
    writeWhole(() =>
      this.#db.transaction(() => {
        forgetTeamRemoval(this.#db, id);
        this.#shares.record(id, "here", now, team ? now : null);
      })(),
    );
    this.#removals.forget(id);
    if (team) upsertEntry(team, id, entry);
  }

  /** Refreshes cached entries wherever the document is listed (and in the team index when shared). */
  refresh(id: string, entry: IndexEntry): void {
    if (hasEntry(this.local, id)) upsertEntry(this.local, id, entry);
    // Only a plan this device shares: refreshing a teammate's entry for a private plan would publish its title.
    if (this.#team && this.#sharedHere(id)) upsertEntry(this.#team, id, entry);
  }

  /** Forgets the document's records, then takes it out of both indexes ('storage-failure' if refused). */
  remove(id: string): void {
    writeWhole(() =>
      this.#db.transaction(() => {
        this.#shares.forgetEverywhere(id);
        forgetTeamRemoval(this.#db, id);
      })(),
    );
    this.#removals.forget(id);
    this.#deletedHere.add(id);
    removeEntry(this.local, id);
    if (this.#team) removeEntry(this.#team, id);
  }

  /**
   * A teammate removed the document from the team's list while this device holds it loaded: it stays listed here,
   * private. Not for a plan deleted here or listed here already, nor one the team's list names again.
   */
  keepAfterTeamRemoval(id: string, entry: IndexEntry): boolean {
    if (this.#deletedHere.has(id) || hasEntry(this.local, id) || (this.#team && hasEntry(this.#team, id))) return false;
    // Listed first, whatever the database says: nothing typed here may drop out of every list.
    upsertEntry(this.local, id, entry);
    return true;
  }

  /** When a teammate removed the document from the team's list while this device held it, or null. */
  leftTeamAt(id: string): number | null {
    return this.#removals.unwritten(id) ?? teamRemovalOf(this.#db, id);
  }
}
