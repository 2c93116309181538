/**
 * A tiny forward-only migration runner keyed on SQLite's `user_version`. Each pending step and its version bump run
 * in one transaction, so a crash leaves the database at a whole step. A database from a newer app (user_version
 * beyond the known steps) is refused rather than guessed at.
 */
import type { Database } from "better-sqlite3";
import { ChopinError } from "../../shared/errors.js";
import type { Migration } from "./migrations.js";

export function schemaVersionOf(db: Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Runs every step after the current user_version; returns the version reached. */
export function migrate(db: Database, steps: readonly Migration[]): number {
  const current = schemaVersionOf(db);
  if (current > steps.length) {
    throw new ChopinError(
      "storage-failure",
      `This data folder was written by a newer version of Chopin (database schema ${current}, this app knows ${steps.length}).`,
    );
  }
  for (let version = current; version < steps.length; version += 1) {
    db.transaction(() => {
      db.exec(steps[version]);
      // pragma cannot take bound parameters; version is an integer we computed.
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return schemaVersionOf(db);
}
