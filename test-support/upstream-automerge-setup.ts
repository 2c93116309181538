/**
 * Setup for automerge-repo's own suites (vitest.upstream.config.ts): importing the package's entry point loads
 * Automerge's wasm, which the suites' direct imports of its slim modules expect to be loaded already.
 */
import "@automerge/automerge-repo";
