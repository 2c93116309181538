/**
 * Whether agent chat (issue #27) is on for this app: `enableAgentChat`, a switch in Settings → Experimental kept in
 * this device's settings table (never synced: each person tries the experiment on their own app), off unless turned
 * on; `--enable-agent-chat` or CHOPIN_ENABLE_AGENT_CHAT=1 (host mode, main/host/agent-chat-args.ts) turns it on for one
 * run whatever the switch says, and the window says so.
 *
 * What must stay true: turning it off deletes nothing (profiles and their documents stay as they are); a change is
 * written whole or refused with 'storage-failure' saying nothing changed.
 */
import type { Database } from "better-sqlite3";
import type { ExperimentalSettings, ExperimentalSettingsPatch } from "../../shared/api.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";
import { writeWhole } from "../util/save-failure.js";

/** "1" while the person turned agent chat on here; absent: off. */
export const AGENT_CHAT_SETTING = "experimental.enableAgentChat";

export class AgentChatSwitch {
  constructor(
    private readonly db: Database,
    /** Turned on for this run by the command line. */
    private readonly byCommandLine: boolean,
  ) {}

  get(): ExperimentalSettings {
    const enableAgentChat = getSetting(this.db, AGENT_CHAT_SETTING) === "1";
    return { enableAgentChat, agentChatByCommandLine: this.byCommandLine, agentChatOn: enableAgentChat || this.byCommandLine };
  }

  /** Whether agent chat is on now (the switch, or this run's command line). */
  on(): boolean {
    return this.get().agentChatOn;
  }

  update(patch: ExperimentalSettingsPatch): ExperimentalSettings {
    if (patch.enableAgentChat !== undefined) {
      const on = patch.enableAgentChat;
      writeWhole(() => (on ? setSetting(this.db, AGENT_CHAT_SETTING, "1") : deleteSetting(this.db, AGENT_CHAT_SETTING)));
    }
    return this.get();
  }
}
