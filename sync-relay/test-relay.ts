/**
 * Test harness for wire-level relay tests: a fresh relay on 127.0.0.1 per test, in its own temporary folder, with
 * named users, a log, and raw clients (test-wire.ts) that are all closed when the test ends. The relay tests that
 * speak the wire directly share this set-up instead of each writing it out.
 */
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { startRelay, type RelayOptions, type RunningRelay } from "./server.js";
import { rawClient, tempDir, type RawClient } from "./test-wire.js";

export interface TestRelay {
  /** The running relay (a new one after restart()). */
  readonly relay: RunningRelay;
  /** Each user's token, by handle. */
  readonly tokens: Record<string, string>;
  /** Every line the relay logged this test. */
  readonly log: string[];
  /** A raw client authenticated as `handle`, not joined yet. */
  client(handle: string): RawClient;
  /** A raw client of `handle` joined as `peerId`. */
  joined(handle: string, peerId: string, extra?: Record<string, unknown>): Promise<RawClient>;
  /** Replaces the relay with one in a fresh data folder started with these options (and adds the same users). */
  restart(options: Partial<RelayOptions>): Promise<void>;
  /** Stops the relay and starts it again on the same data folder with these options (the same users and tokens). */
  reopen(options: Partial<RelayOptions>): Promise<void>;
}

/** Call at the top of a describe block (or file): registers the per-test start and stop. */
export function useTestRelay(prefix: string, handles: readonly string[], options: Partial<RelayOptions> = {}): TestRelay {
  let dir: ReturnType<typeof tempDir>;
  let relay: RunningRelay;
  let starts = 0;
  const tokens: Record<string, string> = {};
  const log: string[] = [];
  const sockets: RawClient[] = [];
  const start = async (extra: Partial<RelayOptions>) => {
    relay = await startRelay({ dataDir: join(dir.path, `relay-${starts++}`), log: (line) => log.push(line), ...options, ...extra });
    for (const handle of handles) tokens[handle] = relay.users.add(handle).token;
  };
  const startAgain = async (extra: Partial<RelayOptions>) => {
    relay = await startRelay({ dataDir: join(dir.path, `relay-${starts - 1}`), log: (line) => log.push(line), ...options, ...extra });
  };
  beforeEach(async () => {
    dir = tempDir(prefix);
    log.length = 0;
    await start({});
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.ws.terminate();
    await relay.close();
    dir.remove();
  });
  const client = (handle: string) => {
    const c = rawClient(relay.url, tokens[handle]);
    sockets.push(c);
    return c;
  };
  return {
    get relay() {
      return relay;
    },
    tokens,
    log,
    client,
    async joined(handle, peerId, extra) {
      const c = client(handle);
      await c.join(peerId, extra);
      return c;
    },
    async restart(extra) {
      await relay.close();
      await start(extra);
    },
    async reopen(extra) {
      for (const s of sockets.splice(0)) s.ws.terminate();
      await relay.close();
      await startAgain(extra);
    },
  };
}
