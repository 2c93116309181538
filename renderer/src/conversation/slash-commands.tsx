/**
 * The composer's slash commands (issue #27): typing `/` at the start of an empty draft offers the commands the
 * conversation's agent takes, in a listbox the keyboard drives from the text box (aria-activedescendant, as the `#`
 * picker), so focus never leaves the message. Choosing one puts the command in the draft; sending it posts it as an
 * ordinary message, which the agent's app processes at a turn boundary (`/new`: main/planner/turn-runner.ts).
 *
 * What must stay true: a command is only ever offered for a draft that is nothing but the start of one (no words after
 * it, nothing before the `/`), so a message that merely begins with a slash is never taken for a command; choosing
 * one never sends it by itself.
 */
import { ComposerOptions } from "./ComposerOptions.js";

export interface SlashCommand {
  /** What is sent, exactly as the agent's app recognises it. */
  text: string;
  description: string;
}

/** The core's NEW_SESSION_COMMAND (main/planner/turn-context.ts): the agent's app starts a fresh session. */
export const NEW_SESSION_COMMAND = "/new";

/** `/new` as a conversation offers it; `called` is who forgets ("the Planner", "the agent"). */
export function newSessionCommand(called: string): SlashCommand {
  return { text: NEW_SESSION_COMMAND, description: `Start a new session: ${called} forgets what was said before` };
}

/** The commands to offer for the draft `text`: those it is the start of, none once it is a whole one or more. */
export function slashCommandsFor(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  return commands.filter((command) => command.text.startsWith(text) && command.text !== text);
}

/** A draft that is a command, as sent: the whole message, spaces around it aside. */
export function isSlashCommand(text: string, commands: readonly SlashCommand[]): boolean {
  return commands.some((command) => command.text === text.trim());
}

export function SlashOptions({ id, options, active, onPick }: { id: string; options: SlashCommand[]; active: number; onPick(command: SlashCommand): void }) {
  return (
    <ComposerOptions
      id={id}
      label="Commands"
      className="reference-options slash-options"
      options={options}
      active={active}
      keyOf={(option) => option.text}
      render={(option) => (
        <>
          <span className="slash-name">{option.text}</span> <span className="slash-description">{option.description}</span>
        </>
      )}
      onPick={onPick}
    />
  );
}
