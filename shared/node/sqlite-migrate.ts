/**
 * The one forward-only migration runner for our SQLite databases (the app core's chopin.db and the relay's
 * relay.sqlite), keyed on SQLite's `user_version`: step N moves a database from version N to N + 1. Each pending step
 * and its version bump run in one IMMEDIATE transaction with the version read again inside it, so a crash leaves the
 * database at a whole step, and a second process opening the same file at the same moment (the relay's CLI beside the
 * relay) never runs a step twice.
 *
 * What must stay true: a database from a newer app (user_version beyond the known steps) is refused with a sentence,
 * never guessed at or written; shipped steps are only ever appended to, never edited.
 */
import type { Database } from "better-sqlite3";
import { ChopinError } from "../errors.js";

/** A step: SQL to run, or a function for what SQL alone cannot say. */
export type Migration = string | ((db: Database) => void);

export function schemaVersionOf(db: Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Runs every step after the database's version; returns the version reached. `what` names the database in the
 * refusal ("This data folder", "This relay's data folder").
 */
export function migrate(db: Database, steps: readonly Migration[], what = "This data folder"): number {
  const refuseNewer = (current: number) => {
    if (current > steps.length) {
      throw new ChopinError(
        "storage-failure",
        `${what} was written by a newer version of Chopin (database schema ${current}, this version knows ${steps.length}): update Chopin to open it.`,
        { schema: current, known: steps.length },
      );
    }
  };
  refuseNewer(schemaVersionOf(db));
  while (schemaVersionOf(db) < steps.length) {
    db.transaction(() => {
      const version = schemaVersionOf(db);
      refuseNewer(version);
      if (version >= steps.length) return;
      const step = steps[version]!;
      if (typeof step === "string") db.exec(step);
      else step(db);
      // pragma cannot take bound parameters; the version is an integer we computed.
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
  return schemaVersionOf(db);
}
