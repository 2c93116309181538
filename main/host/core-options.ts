/**
 * What host mode's parsed command line and environment ask of the app core: one mapping, so a test can start a core
 * exactly as `npm start -- --headless` would from the same arguments. What must stay true: every HostArgs field the
 * core needs reaches it here (the GitHub token included), and nothing here prints or decides.
 */
import type { AppCoreOptions } from "../core/types.js";
import type { HostArgs } from "./cli-args.js";

export function hostCoreOptions(args: HostArgs, dataDir: string, onStorageFault?: (sentence: string) => void): AppCoreOptions {
  return {
    dataDir,
    relayUrl: args.relayUrl ?? undefined,
    relayToken: args.relayToken ?? undefined,
    mcpPort: args.mcpPort,
    githubClientId: args.github.clientId,
    githubApiUrl: args.github.apiBaseUrl,
    githubWebUrl: args.github.webBaseUrl,
    githubToken: args.githubToken,
    planner: args.planner,
    enableAgentChat: args.enableAgentChat,
    ...(onStorageFault ? { onStorageFault } : {}),
  };
}
