/** The window's in-memory test double runs the ChopinApi contract (shared/api-contract.ts), as the real core does. */
import { Repo, generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { chopinApiContract } from "../../../shared/api-contract.js";
import { createMemoryBridge } from "./memory-bridge.js";

chopinApiContract("the memory bridge", async () => {
  const repo = new Repo({});
  const bridge = createMemoryBridge(repo);
  return {
    api: bridge.api,
    on: (event, listener) => bridge.on(event, listener),
    unknownId: parseAutomergeUrl(generateAutomergeUrl()).documentId,
    close: async () => {
      await repo.shutdown().catch(() => undefined);
    },
  };
});
