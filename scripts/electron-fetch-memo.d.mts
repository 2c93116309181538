/** Types for electron-fetch-memo.mjs (plain JS so `npm start` runs it without a TypeScript loader). */
export declare const ELECTRON_FETCH_RETRY_MS: number;
export declare const ELECTRON_FETCH_TIMEOUT_MS: number;
export declare function lastFetchFailure(memoPath: string): number | null;
export declare function shouldFetch(memoPath: string, now: number): boolean;
export declare function rememberFetchFailure(memoPath: string, now: number): void;
