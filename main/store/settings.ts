/** Key/value settings of this installation (display name, relay URL, MCP token, local index id...). Values are text. */
import type { Database } from "better-sqlite3";

export function getSetting(db: Database, key: string): string | null {
  const row = db.prepare("SELECT value FROM settings WHERE key = ?").get(key) as { value: string } | undefined;
  return row ? row.value : null;
}

export function setSetting(db: Database, key: string, value: string): void {
  db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
    key,
    value,
  );
}

export function deleteSetting(db: Database, key: string): void {
  db.prepare("DELETE FROM settings WHERE key = ?").run(key);
}

/** Returns the stored value, or stores and returns `create()` when absent; one transaction, so two callers agree. */
export function getOrCreateSetting(db: Database, key: string, create: () => string): string {
  return db.transaction(() => {
    const existing = getSetting(db, key);
    if (existing !== null) return existing;
    const value = create();
    db.prepare("INSERT INTO settings (key, value) VALUES (?, ?)").run(key, value);
    return value;
  })();
}
