/**
 * The sidebar's Agents as the window shows them (issue #27): read when the sidebar shows them, then followed through
 * "agent-sidebar-changed" (a star here, in another window or on the person's other device; a chat visit; a profile
 * renamed or removed; the relay or the person changing).
 *
 * What must stay true: an answer to the first read that arrives after an event is not shown over it (the event is
 * newer); `show` puts an answer of this window's own call on screen at once (its event follows).
 */
import { useEffect, useState } from "react";
import type { AgentSidebar } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";

export interface AgentSidebarView {
  sidebar: AgentSidebar | null;
  show(sidebar: AgentSidebar): void;
}

export function useAgentSidebar(): AgentSidebarView {
  const { bridge } = useServices();
  const [sidebar, setSidebar] = useState<AgentSidebar | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = bridge.on("agent-sidebar-changed", (next) => {
      heard = true;
      if (live) setSidebar(next);
    });
    bridge.api.getAgentSidebar().then(
      (loaded) => live && !heard && setSidebar(loaded),
      // Agent chat turned off meanwhile, or the core unreachable: the Agents entry says what matters; no rows.
      () => undefined,
    );
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  return { sidebar, show: setSidebar };
}
