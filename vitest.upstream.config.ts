/**
 * automerge-repo's own test suites, run against the installed (patched) package: patches/ changes DocHandle and
 * DocSynchronizer, and these suites pin the behaviour everything else in automerge-repo relies on. The package ships
 * its tests importing ../src (TypeScript sources); they are pointed at the built dist/ that the app actually runs.
 */
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { defineConfig } from "vitest/config";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "node_modules/@automerge/automerge-repo");

export default defineConfig({
  resolve: {
    alias: [
      // The tests' and dist helpers' imports of the sources (../src/x.js, ../../src/x.js) load the built files.
      { find: /^(?:\.\.\/)+src\/(.*)$/, replacement: `${pkg}/dist/$1` },
      { find: /^(?:\.\.\/)+automerge-repo-network-messagechannel\/src\/index\.js$/, replacement: "@automerge/automerge-repo-network-messagechannel" },
      // The StorageSubsystem suite's file-system adapter is our SQLite adapter (test-support/upstream-nodefs-storage.ts).
      { find: /^(?:\.\.\/)+automerge-repo-storage-nodefs\/src\/index\.js$/, replacement: join(here, "test-support/upstream-nodefs-storage.ts") },
    ],
  },
  test: {
    root: pkg,
    // Three upstream tests count a handle's "heads-changed" listeners (expecting 1, or 0 without storage); the patch's
    // synchronizer listens there by design (every new head needs syncing, and no patches are computed for it).
    // "syncs a bunch of changes" calls change() on a random handle after a fixed 50 ms pause (its own comment says
    // HACK), and a handle another repo created may still be fetching then: it failed 4 runs in 16 here with the
    // pacing patch's newest part taken out, as often as with it.
    testNamePattern: /^(?!.*(does not add duplicate heads-changed listeners|registers document with synchronizer when there is no storage subsystem|syncs a bunch of changes)).*$/,
    // The suites our patch touches, and those of the parts we build on (network, presence, share policy, storage, the
    // last over our own SQLite adapter). remoteHeads.test.ts is not among them: it fails now and then here with or
    // without the patch (timing on a loaded 2-core machine).
    include: ["test/DocHandle.test.ts", "test/DocSynchronizer.test.ts", "test/CollectionSynchronizer.test.ts", "test/Repo.test.ts", "test/NetworkSubsystem.test.ts", "test/Presence.test.ts", "test/SharePolicy.test.ts", "test/StorageSubsystem.test.ts"],
    exclude: [],
    // The package's entry point loads Automerge's wasm; the tests import its slim modules directly.
    setupFiles: [join(here, "test-support/upstream-automerge-setup.ts")],
    // dist/helpers/DummyNetworkAdapter.js itself imports ../../src/helpers/pause.js (a packaging slip): run the
    // package's files through Vite so the alias above applies to them too.
    server: { deps: { inline: [/@automerge\/automerge-repo\/dist\//] } },
    environment: "node",
    testTimeout: 30_000,
    pool: "forks",
  },
});
