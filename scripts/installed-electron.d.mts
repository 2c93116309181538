/** Types for installed-electron.mjs (plain JS so `npm start` runs it without a TypeScript loader). */
export declare function installedElectron(projectRoot: string): string | null;
