/**
 * A button that copies a text to the clipboard and says how it went, in its face and in a live region: the button's
 * accessible name stays "Copy <what>" (so a screen reader user knows what it copies), and the region says "Copied"
 * or, where the clipboard is refused (a browser tab without permission), to select the text and copy it by hand.
 */
import { useState } from "react";
import { Icon } from "./Icons.js";

type Outcome = "copied" | "failed" | null;

/** What the live region says after a copy of `what` (e.g. "the code"). */
export function copyOutcomeWords(outcome: Outcome, what: string): string {
  if (outcome === "copied") return `Copied ${what} to the clipboard.`;
  if (outcome === "failed") return `Could not reach the clipboard: select ${what} and copy it.`;
  return "";
}

export function CopyButton({ text, name, what }: { text: string; /** The button's accessible name. */ name: string; /** The thing copied, in the sentence. */ what: string }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome("copied");
    } catch {
      setOutcome("failed");
    }
  };
  return (
    <>
      <button type="button" className="button button-small" aria-label={name} onClick={() => void copy()}>
        <Icon name="copy" size={14} />
        {outcome === "copied" ? "Copied" : outcome === "failed" ? "Select and copy" : "Copy"}
      </button>
      <span className="visually-hidden" role="status">
        {copyOutcomeWords(outcome, what)}
      </span>
    </>
  );
}
