/**
 * What a freshly started relay tells its operator beyond "listening": the two mistakes the README audit hit. A relay
 * bound to a loopback address (the safe default) cannot be reached by any other machine, which nothing else in the
 * output says; and a relay with no active user admits nobody (unless GitHub admission is on).
 * What must stay true: each note is one line that names the fix (the flag, the environment variable or the command),
 * and nothing here touches the network or the database (the caller passes what it knows).
 */

export interface StartupFacts {
  /** The address the relay listens on, as given (--host / CHOPIN_RELAY_HOST). */
  host: string;
  port: number;
  dataDir: string;
  /** Users who may sign in with a relay token (revoked ones do not count). */
  activeUsers: number;
  /** GitHub admission is configured: people can come in without a relay user. */
  githubAdmission: boolean;
}

/** localhost, 127.0.0.0/8, ::1 and their IPv4-mapped forms: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A shell word for an operator to copy (quoted only when it needs to be). */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function startupNotes(facts: StartupFacts): string[] {
  const notes: string[] = [];
  if (isLoopbackHost(facts.host)) {
    notes.push(
      `Reachable only from this machine (${facts.host} is a loopback address): for a team relay start it with --host 0.0.0.0 (or CHOPIN_RELAY_HOST=0.0.0.0) and put TLS in front for wss://.`,
    );
  } else {
    notes.push(`Members connect to ws://<this machine's name or address>:${facts.port} (or wss:// through a TLS proxy in front).`);
  }
  if (facts.activeUsers === 0 && !facts.githubAdmission) {
    notes.push(`No users yet, so nobody can connect: add one with npm run relay -- user add <handle> --data ${shellWord(facts.dataDir)}`);
  }
  return notes;
}
