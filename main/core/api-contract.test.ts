/** The real core runs the ChopinApi contract (shared/api-contract.ts), as the window's test double does. */
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { chopinApiContract } from "../../shared/api-contract.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";

chopinApiContract("the app core", async () => {
  const dir = tempDir("chopin-contract-");
  const core = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
  return {
    api: core.api,
    on: (event, listener) => core.events.on(event, listener),
    unknownId: parseAutomergeUrl(generateAutomergeUrl()).documentId,
    close: async () => {
      await core.close();
      dir.remove();
    },
  };
});
