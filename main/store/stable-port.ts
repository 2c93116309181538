/**
 * Which port a local server listens on, launch after launch. Whatever was set up with the address (an agent storing
 * the MCP URL, a browser tab's origin holding host mode's unsaved-edit outbox) needs the port not to wander: the
 * requested port first (the default, or the flag); when it is taken, the port this installation fell back to last
 * time; only then any free port, remembered as the new fallback. When the port differs from the one the previous
 * launch published, the caller is told (changedFrom), so it can say why an old address no longer answers.
 * What must stay true: a taken port never keeps the app from starting; an explicit port 0 ("any") is never
 * remembered or reported as a change (tests and scripts ask for it on purpose); each server's memory is its own
 * (`name` prefixes the settings keys: "mcp" keeps the keys earlier versions wrote).
 */
import type { Database } from "better-sqlite3";
import { getSetting, setSetting } from "./settings.js";

export interface StablePortStart<T> {
  server: T;
  /** The port the previous launch published, when this launch could not use it; null otherwise. */
  changedFrom: number | null;
}

/** `listen(port)` must reject with code EADDRINUSE when the port is taken. */
export async function listenOnStablePort<T extends { port: number }>(
  db: Database,
  name: string,
  requested: number,
  listen: (port: number) => Promise<T>,
): Promise<StablePortStart<T>> {
  const fallbackKey = `${name}.fallbackPort`;
  const publishedKey = `${name}.publishedPort`;
  const fallback = Number(getSetting(db, fallbackKey)) || 0;
  const candidates = requested === 0 ? [0] : [...new Set([requested, fallback].filter((p) => p > 0)), 0];
  let server: T | null = null;
  for (const port of candidates) {
    server = await listen(port).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE" && port !== 0) return null;
      throw error;
    });
    if (server) break;
  }
  if (!server) throw new Error("unreachable: port 0 always binds or throws");
  if (requested === 0) return { server, changedFrom: null };
  if (server.port !== requested) setSetting(db, fallbackKey, String(server.port));
  const published = Number(getSetting(db, publishedKey)) || null;
  setSetting(db, publishedKey, String(server.port));
  return { server, changedFrom: published !== null && published !== server.port ? published : null };
}
