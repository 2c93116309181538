/**
 * A running turn as the windows of the owner's app see it (issue #26): the runner's events folded into the answer's
 * text so far and the tool calls with their status. A denial shows as refused, naming the check; it is never shown as
 * a tool that started.
 * What must stay true: each event makes one new progress value (windows replace what they show with it); a turn's
 * progress ends with `done`.
 */
import type { PlannerTurnProgress } from "../../shared/api.js";
import type { PlannerEvent } from "./copilot-runtime.js";

export function turnProgress(documentId: string, turnId: string): { apply(event: PlannerEvent): PlannerTurnProgress; done(): PlannerTurnProgress } {
  let text = "";
  /** Text of the messages finished before the one now streaming (a turn may say something, call a tool, say more). */
  let earlier = "";
  let denials = 0;
  const tools: PlannerTurnProgress["tools"] = [];
  const now = (done = false): PlannerTurnProgress => ({ documentId, turnId, text: earlier + text, tools: tools.map((tool) => ({ ...tool })), done });
  return {
    apply(event) {
      switch (event.type) {
        case "text-delta":
          text += event.delta;
          break;
        case "message":
          if (event.content.trim() !== "") earlier += `${event.content}\n\n`;
          text = "";
          break;
        case "tool-start":
          tools.push({ id: event.toolCallId, name: event.name, status: "running" });
          break;
        case "tool-complete": {
          const tool = tools.find((t) => t.id === event.toolCallId);
          if (tool) {
            tool.status = event.ok ? "done" : "failed";
            if (event.error) tool.note = event.error;
          }
          break;
        }
        case "tool-denied":
          tools.push({ id: `denied-${++denials}`, name: event.name, status: "refused", note: `${event.check}: ${event.reason}` });
          break;
        default:
          break;
      }
      return now();
    },
    done: () => now(true),
  };
}
