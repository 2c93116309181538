/** Public surface of shared/: schemas, the API contract, limits and errors. Imports nothing of ours. */
export * from "./limits.js";
export * from "./defaults.js";
export * from "./errors.js";
export * from "./api.js";
export * from "./schema/plan-document.js";
export * from "./schema/workspace-index.js";
export * from "./schema/migrations.js";
