/**
 * Turns the failures an operator meets when starting the relay or running a user command (a data path that is a file,
 * a port already taken, missing permissions) into one sentence that says what is wrong and what to do, instead of a
 * raw "EEXIST: file already exists, mkdir …". What must stay true: every input yields a sentence (never throws), and
 * an unknown failure still shows its original message so nothing is hidden.
 */
import { resolve } from "node:path";
import { ChopinError } from "../shared/errors.js";

export interface FailureContext {
  dataDir?: string;
  port?: number;
  host?: string;
}

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  port?: unknown;
  address?: unknown;
  message?: unknown;
}

export function describeRelayFailure(error: unknown, context: FailureContext = {}): string {
  if (error instanceof ChopinError) return error.message;
  const e = (error && typeof error === "object" ? error : {}) as SystemError;
  const code = typeof e.code === "string" ? e.code : "";
  const path = typeof e.path === "string" ? e.path : context.dataDir !== undefined ? resolve(context.dataDir) : "the data folder";
  const port = typeof e.port === "number" ? e.port : context.port;
  const host = typeof e.address === "string" ? e.address : context.host;
  const where = `port ${port ?? "?"}${host ? ` on ${host}` : ""}`;
  const isListen = e.syscall === "listen" || e.syscall === "bind";
  switch (code) {
    case "EEXIST":
    case "ENOTDIR":
      return `The data path ${path} is a file, not a folder: give --data (or CHOPIN_RELAY_DATA) a folder; it is created if missing.`;
    case "EADDRINUSE":
      return `Cannot listen on ${where}: another program already uses it. Stop that program or choose another --port.`;
    case "EADDRNOTAVAIL":
      return `Cannot listen on ${where}: this machine has no such address. Choose another --host.`;
    case "EACCES":
    case "EPERM":
      return isListen
        ? `Not allowed to listen on ${where} (ports below 1024 usually need extra rights). Choose another --port.`
        : `No permission to use ${path}: choose a --data folder this user may write to.`;
    case "EROFS":
      return `${path} is on a read-only file system: choose a writable --data folder.`;
    case "ENOSPC":
      return `The disk holding ${path} is full: free space or choose another --data folder.`;
    case "SQLITE_CANTOPEN":
      return `Cannot open the relay database in ${context.dataDir !== undefined ? resolve(context.dataDir) : "the data folder"}: check that the folder exists and this user may write to it.`;
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `The relay database in ${context.dataDir !== undefined ? resolve(context.dataDir) : "the data folder"} is not a readable SQLite database.`;
  }
  const message = error instanceof Error ? error.message : typeof e.message === "string" ? e.message : String(error);
  return `Unexpected failure: ${message}`;
}
