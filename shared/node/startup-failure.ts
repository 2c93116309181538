/**
 * Turns the failures a person meets when a process starts (a data path that is a file, a folder without permission,
 * a database that is not one, a port already taken) into one sentence that says what is wrong and what to do,
 * instead of a raw "EEXIST: file already exists, mkdir …". The relay (sync-relay/startup-errors.ts) and the app core
 * (main/cli.ts, main/electron/main.ts) each name their own options and database in `words`.
 *
 * What must stay true: every input yields a sentence (never throws), and an unknown failure still shows its original
 * message so nothing is hidden.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ChopinError } from "../errors.js";

export interface FailureContext {
  dataDir?: string;
  port?: number;
  host?: string;
}

/** How a process names the things a sentence points the person to. */
export interface FailureWords {
  /** The option choosing the data folder, e.g. "--data (or CHOPIN_RELAY_DATA)". */
  dataOption: string;
  /** The option choosing the port, e.g. "--port". */
  portOption: string;
  /** The option choosing the listening address, e.g. "--host"; null when the process has none. */
  hostOption: string | null;
  /** The database, e.g. "the relay database". */
  database: string;
}

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  /** A rename's target (its `path` is the source). */
  dest?: unknown;
  port?: unknown;
  address?: unknown;
  message?: unknown;
}

export function describeStartupFailure(error: unknown, words: FailureWords, context: FailureContext = {}): string {
  if (error instanceof ChopinError) return error.message;
  const e = (error && typeof error === "object" ? error : {}) as SystemError;
  const code = typeof e.code === "string" ? e.code : "";
  const folder = context.dataDir !== undefined ? resolve(context.dataDir) : "the data folder";
  const path = typeof e.path === "string" ? e.path : folder;
  const port = typeof e.port === "number" ? e.port : context.port;
  const host = typeof e.address === "string" ? e.address : context.host;
  const where = `port ${port ?? "?"}${host ? ` on ${host}` : ""}`;
  const isListen = e.syscall === "listen" || e.syscall === "bind";
  switch (code) {
    case "EEXIST":
    case "ENOTDIR":
      // ENOTDIR also comes for a folder on the way that is a file (".../afile/sub"): then the path named is not the file.
      if (code === "ENOTDIR" && !isFile(path)) {
        return `The data path ${path} goes through a file as if it were a folder: give ${words.dataOption} a folder; it is created if missing.`;
      }
      return `The data path ${path} is a file, not a folder: give ${words.dataOption} a folder; it is created if missing.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      if (e.syscall === "getaddrinfo") {
        const name = typeof (e as { hostname?: unknown }).hostname === "string" ? (e as { hostname: string }).hostname : host;
        return `Cannot listen on ${name ?? "that host"}: it is not a name this machine can look up.${words.hostOption ? ` Choose another ${words.hostOption} (127.0.0.1 for this machine only, 0.0.0.0 for the network).` : ""}`;
      }
      break;
    case "EISDIR":
      return `${typeof e.dest === "string" ? e.dest : path} is a folder where a file belongs: move it out of ${folder}, or choose another folder with ${words.dataOption}.`;
    case "EADDRINUSE":
      return `Cannot listen on ${where}: another program already uses it. Stop that program or choose another ${words.portOption}.`;
    case "EADDRNOTAVAIL":
      return `Cannot listen on ${where}: this machine has no such address.${words.hostOption ? ` Choose another ${words.hostOption}.` : ""}`;
    case "EACCES":
    case "EPERM":
      return isListen
        ? `Not allowed to listen on ${where} (ports below 1024 usually need extra rights). Choose another ${words.portOption}.`
        : `No permission to use ${path}: choose a ${words.dataOption} folder this user may write to.`;
    case "EROFS":
    case "SQLITE_READONLY":
      return `${code === "EROFS" ? path : folder} is not writable (a read-only file system or folder): choose a writable folder with ${words.dataOption}.`;
    case "ENOSPC":
    case "SQLITE_FULL":
      return `The disk holding ${code === "ENOSPC" ? path : folder} is full: free space or choose another folder with ${words.dataOption}.`;
    case "SQLITE_CANTOPEN":
      return `Cannot open ${words.database} in ${folder}: check that the folder exists and this user may write to it.`;
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `${capitalized(words.database)} in ${folder} is not a readable SQLite database. Keep a copy of the folder, and choose another folder with ${words.dataOption} to start afresh.`;
  }
  const message = error instanceof Error ? error.message : typeof e.message === "string" ? e.message : String(error);
  return `Unexpected failure: ${message}`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
