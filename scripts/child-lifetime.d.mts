/** Types for child-lifetime.mjs (plain JS so `npm start` runs it without a TypeScript loader). */
import type { ChildProcess } from "node:child_process";
export declare const PARENT_POLL_MS: number;
export declare function tieChildToLauncher(child: ChildProcess, options?: { pollMs?: number; exit?: (code: number) => void }): void;
