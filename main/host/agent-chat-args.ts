/**
 * Agent chat for one run of host mode (issue #27): `--enable-agent-chat`, or CHOPIN_ENABLE_AGENT_CHAT=1 in the
 * environment, turns it on whatever Settings → Experimental says (the window says so); nothing is stored. Any other
 * value of the variable than 1, 0 or empty is refused with a sentence naming it, rather than read as on or off.
 */
import { ChopinError } from "../../shared/errors.js";

export const AGENT_CHAT_FLAG = "--enable-agent-chat";
export const AGENT_CHAT_ENV = "CHOPIN_ENABLE_AGENT_CHAT";

export function parseAgentChatArg(flagGiven: boolean, env: NodeJS.ProcessEnv): boolean {
  if (flagGiven) return true;
  const raw = env[AGENT_CHAT_ENV];
  if (raw === undefined || raw === "" || raw === "0") return false;
  if (raw === "1") return true;
  throw new ChopinError("invalid-input", `${AGENT_CHAT_ENV} is 1 (agent chat on for this run) or 0; got “${raw.slice(0, 40)}”.`);
}
