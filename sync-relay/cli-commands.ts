/**
 * The relay CLI without the process around it, so tests run the exact code path an operator runs:
 *   relay [--port P] [--host H] [--data DIR]          serve (env: CHOPIN_RELAY_PORT, CHOPIN_RELAY_HOST, CHOPIN_RELAY_DATA;
 *                                                    defaults DEFAULT_RELAY_PORT, loopback, relay-data/)
 *         [--github-api-url URL] [--allowed-users a,b] [--allowed-orgs o1,o2]
 *                                                    also admit GitHub user tokens (env: CHOPIN_RELAY_GITHUB_API_URL,
 *                                                    CHOPIN_RELAY_ALLOWED_USERS, CHOPIN_RELAY_ALLOWED_ORGS); both
 *                                                    lists empty admits every GitHub user. Without the URL only relay
 *                                                    tokens work, and the lists are refused rather than ignored.
 *   relay user add <handle> [--data DIR]              prints the new token alone on its last line; creates the relay
 *                                                    database when DIR has none (first-time setup) and says so on stderr
 *   relay user list [--data DIR]                      refuses (exit 1, nothing created) when DIR holds no relay database
 *   relay user revoke <handle> [--data DIR]           same refusal; a running relay cuts that user within
 *                                                    RELAY_REVOCATION_BOUND_MS
 * Bad arguments print a sentence and return exit code 2; they never throw. Every argument (handle shape, port) is
 * judged here, before anything opens or creates the database, so a refused command leaves the data folder untouched.
 */
import { ChopinError } from "../shared/errors.js";
import { durableUserWrites, openExistingRelayDb, openRelayDb, relayDbExists, relayDbPath } from "./relay-db.js";
import { describeRelayFailure } from "./startup-errors.js";
import type { RelayGitHubOptions } from "./authenticate.js";
import { DEFAULT_RELAY_PORT, LOOPBACK_HOST } from "../shared/defaults.js";
import { UserStore, checkHandle, isValidHandle } from "./users.js";
import { readOptions, type OptionKinds } from "../shared/node/cli-options.js";
import { RELAY_REVOCATION_BOUND_MS } from "./limits.js";

/** Relative to the current folder (.gitignore lists it, for a relay started inside a checkout). */
export const DEFAULT_RELAY_DATA_DIR = "relay-data";

export type CliCommand =
  | { kind: "serve"; port: number; host: string; dataDir: string; github?: RelayGitHubOptions; allowQueryToken?: true }
  | { kind: "user-add"; handle: string; dataDir: string }
  | { kind: "user-list"; dataDir: string }
  | { kind: "user-revoke"; handle: string; dataDir: string }
  | { kind: "help" };

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = [
  "usage: npm run relay -- [--port P] [--host H] [--data DIR] [--github-api-url URL [--allowed-users a,b] [--allowed-orgs o1,o2]] [--allow-query-token]",
  "       npm run relay -- user add <handle> [--data DIR]",
  "       npm run relay -- user list [--data DIR]",
  "       npm run relay -- user revoke <handle> [--data DIR]",
].join("\n");

/** What --help prints: the usage, then every option with its environment variable and default. */
export const HELP = [
  USAGE,
  "",
  "options (a flag wins over its environment variable):",
  `  --port P               CHOPIN_RELAY_PORT      default ${DEFAULT_RELAY_PORT}; 0 picks a free port`,
  `  --host H               CHOPIN_RELAY_HOST      default ${LOOPBACK_HOST} (this machine only); 0.0.0.0 serves other machines`,
  `  --data DIR             CHOPIN_RELAY_DATA      default ./${DEFAULT_RELAY_DATA_DIR} (created if missing)`,
  "  --github-api-url URL   CHOPIN_RELAY_GITHUB_API_URL  also admit GitHub sign-ins, e.g. https://api.github.com (default: off)",
  "  --allowed-users a,b    CHOPIN_RELAY_ALLOWED_USERS   GitHub logins admitted (with --github-api-url)",
  "  --allowed-orgs o1,o2   CHOPIN_RELAY_ALLOWED_ORGS    GitHub organizations whose members are admitted; both lists empty admits every GitHub user",
  "  --allow-query-token    CHOPIN_RELAY_ALLOW_QUERY_TOKEN=1  also take a token as ?token= in the address (default: refused, as",
  "                         addresses end up in proxies' access logs; only for tools that cannot send an Authorization header)",
].join("\n");

/** The options, for util.parseArgs (shared/node/cli-options.ts). */
const OPTIONS: OptionKinds = {
  help: { type: "boolean", short: "h" },
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  "github-api-url": { type: "string" },
  "allowed-users": { type: "string" },
  "allowed-orgs": { type: "string" },
  "allow-query-token": { type: "boolean" },
};

/** "a, b,,c" -> ["a","b","c"]; every name must look like a GitHub login or organization. */
function nameList(raw: string | undefined, what: string): string[] {
  const names = (raw ?? "").split(",").map((n) => n.trim()).filter((n) => n.length > 0);
  for (const name of names) {
    if (!isValidHandle(name)) throw new ChopinError("invalid-input", `"${name}" is not a valid GitHub ${what} name.`);
  }
  return names;
}

/** A setting from its flag, else its environment variable, with where it came from (for the sentence about it). */
interface Setting {
  value: string;
  from: string;
}

/**
 * The flag wins over the variable. An empty variable counts as unset, as a template's `CHOPIN_RELAY_HOST=${HOST}`
 * with no HOST gives: read as a host, "" listened on every interface.
 */
function setting(flags: Map<string, string>, env: NodeJS.ProcessEnv, flag: string, variable: string): Setting | undefined {
  const given = flags.get(flag);
  if (given !== undefined) return { value: given, from: `--${flag}` };
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { value: fromEnv.trim(), from: variable };
  return undefined;
}

function parseGitHubAdmission(flags: Map<string, string>, env: NodeJS.ProcessEnv): RelayGitHubOptions | undefined {
  const apiUrl = setting(flags, env, "github-api-url", "CHOPIN_RELAY_GITHUB_API_URL")?.value;
  const allowedUsers = nameList(setting(flags, env, "allowed-users", "CHOPIN_RELAY_ALLOWED_USERS")?.value, "user");
  const allowedOrgs = nameList(setting(flags, env, "allowed-orgs", "CHOPIN_RELAY_ALLOWED_ORGS")?.value, "organization");
  if (!apiUrl) {
    if (allowedUsers.length > 0 || allowedOrgs.length > 0) {
      throw new ChopinError("invalid-input", "--allowed-users and --allowed-orgs need --github-api-url (e.g. https://api.github.com).");
    }
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    throw new ChopinError("invalid-input", `"${apiUrl}" is not a GitHub API address.`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ChopinError("invalid-input", `"${apiUrl}" is not an http:// or https:// GitHub API address.`);
  }
  return { apiUrl, allowedUsers, allowedOrgs };
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliCommand {
  const { values, positionals: positional } = readOptions(argv, OPTIONS, { positionals: true });
  if (values.help === true) return { kind: "help" };
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "string") flags.set(name, value);
    else if (value === true) flags.set(name, "1");
  }
  const dataDir = setting(flags, env, "data", "CHOPIN_RELAY_DATA")?.value ?? DEFAULT_RELAY_DATA_DIR;
  if (positional.length === 0) {
    const rawPort = setting(flags, env, "port", "CHOPIN_RELAY_PORT");
    const port = Number(rawPort?.value ?? DEFAULT_RELAY_PORT);
    if (rawPort && (!/^\d+$/.test(rawPort.value) || port > 65535)) {
      throw new ChopinError("invalid-input", `${rawPort.from} "${rawPort.value}" is not a port number (0 to 65535; 0 picks a free one).`);
    }
    const github = parseGitHubAdmission(flags, env);
    const host = setting(flags, env, "host", "CHOPIN_RELAY_HOST")?.value ?? LOOPBACK_HOST;
    const queryToken = setting(flags, env, "allow-query-token", "CHOPIN_RELAY_ALLOW_QUERY_TOKEN");
    if (queryToken && queryToken.value !== "1") {
      throw new ChopinError("invalid-input", `${queryToken.from} "${queryToken.value}" is not 1; set it to 1 to take tokens in the address, or leave it unset.`);
    }
    return { kind: "serve", port, host, dataDir, ...(github ? { github } : {}), ...(queryToken ? { allowQueryToken: true as const } : {}) };
  }
  // A user command reads and writes the data folder only: a serving option there would be silently ignored.
  const serving = [...flags.keys()].find((name) => name !== "data");
  if (serving !== undefined) throw new ChopinError("invalid-input", `--${serving} is for serving; user commands take only --data DIR.`);
  const [group, action, handle, ...rest] = positional;
  if (group !== "user") throw new ChopinError("invalid-input", `Unknown command "${group}".`);
  if (rest.length > 0) throw new ChopinError("invalid-input", `Unexpected argument "${rest[0]}".`);
  if (action === "list" && handle === undefined) return { kind: "user-list", dataDir };
  if (action === "add" || action === "revoke") {
    if (handle === undefined) throw new ChopinError("invalid-input", `"user ${action}" needs a handle: npm run relay -- user ${action} <handle> [--data DIR]`);
    // Judged before the database is opened: a refused handle must not leave a new database behind.
    if (action === "add") checkHandle(handle);
    return { kind: action === "add" ? "user-add" : "user-revoke", handle, dataDir };
  }
  throw new ChopinError("invalid-input", `Unknown user command "${[action, handle].filter(Boolean).join(" ")}".`);
}

/** Runs a user subcommand against the relay database in dataDir; returns the process exit code. */
export function runUserCommand(command: Exclude<CliCommand, { kind: "serve" } | { kind: "help" }>, io: CliOutput): number {
  let db;
  try {
    if (command.kind === "user-add") {
      const existed = relayDbExists(command.dataDir);
      db = durableUserWrites(openRelayDb(command.dataDir));
      if (!existed) io.err(`Created a new relay database at ${relayDbPath(command.dataDir)} (there was none).`);
    } else {
      db = durableUserWrites(openExistingRelayDb(command.dataDir));
    }
  } catch (error) {
    io.err(describeRelayFailure(error, { dataDir: command.dataDir }));
    return 1;
  }
  try {
    const users = new UserStore(db);
    switch (command.kind) {
      case "user-add": {
        const { handle, token } = users.add(command.handle);
        io.out(`Added user "${handle}". Their relay token (shown once; store it now):`);
        io.out(token);
        return 0;
      }
      case "user-list": {
        const rows = users.list();
        if (rows.length === 0) io.out("No users.");
        for (const u of rows) {
          const state = u.revokedAt === null ? "active" : `revoked ${new Date(u.revokedAt).toISOString()}`;
          io.out(`${u.handle}\tadded ${new Date(u.createdAt).toISOString()}\t${state}`);
        }
        return 0;
      }
      case "user-revoke": {
        if (!users.revoke(command.handle)) {
          io.err(`No active user named "${command.handle}".`);
          return 1;
        }
        io.out(`Revoked "${command.handle}". Their connections close within seconds.`);
        return 0;
      }
    }
  } catch (error) {
    io.err(describeRelayFailure(error, { dataDir: command.dataDir }));
    return 1;
  } finally {
    db.close();
  }
}
