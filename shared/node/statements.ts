/**
 * Prepared statements cached per database connection. better-sqlite3's prepare() parses and plans the SQL on every
 * call (measured: `prepare` was 3.5% of an app core's CPU while a teammate typed, from per-message lookups), so code
 * on a hot path asks here instead and each distinct SQL text is prepared once per connection.
 *
 * What must stay true: a statement is only ever used with the connection it was prepared on (the cache is keyed by
 * the Database object), and a closed connection's statements go with it (WeakMap).
 */
import type { Database, Statement } from "better-sqlite3";

const caches = new WeakMap<Database, Map<string, Statement>>();

export function statement(db: Database, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
