/**
 * The person's Hand off action in an agent chat (issue #27): a button that opens a small dialog asking for the new
 * plan's title and a brief, then asks the core to make the plan (the brief above the chat plan's drafted Markdown)
 * and write the chat's card. The chat view places it; the card itself shows in the transcript (HandoffCard).
 *
 * What must stay true: one clientRequestId per handoff, kept while the same title and brief are sent again (a retry
 * after a lost answer is the same plan and the same card), a new one once either is changed; a refusal is said in a
 * sentence in the dialog and keeps what was typed; nothing claims a plan exists before the core answered with it.
 */
import { useRef, useState, type FormEvent } from "react";
import { MAX_HANDOFF_BRIEF_BYTES, MAX_TITLE_CHARS } from "../../../shared/limits.js";
import { Dialog } from "../components/Dialog.js";
import { Field } from "../components/SettingsField.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";

function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function HandoffAction({ agentId, disabled = false }: { agentId: string; disabled?: boolean }) {
  const { bridge } = useServices();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [brief, setBrief] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  /** This handoff's key: the same until it succeeds or what it sends changes. */
  const requestId = useRef<string | null>(null);

  const edit = (set: (value: string) => void) => (value: string) => {
    requestId.current = null;
    set(value);
  };
  const close = () => {
    setOpen(false);
    setError(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    requestId.current ??= newRequestId();
    setBusy(true);
    setError(null);
    try {
      const result = await bridge.api.handOffAgentChatPlan(agentId, { title, brief, clientRequestId: requestId.current });
      requestId.current = null;
      setTitle("");
      setBrief("");
      setOpen(false);
      setDone(result.entry.handoff?.title ?? title.trim());
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button"
        disabled={disabled}
        onClick={() => {
          setDone(null);
          setOpen(true);
        }}
      >
        Hand off plan
      </button>
      {done !== null && (
        <span className="form-message is-ok" role="status">
          Handed off as “{done}”.
        </span>
      )}
      {open && (
        <Dialog title="Hand off the plan" onClose={close}>
          <form className="handoff-form" aria-label="Hand off the plan" onSubmit={(event) => void submit(event)}>
            <p className="dialog-text">A new plan is made with this title and brief, followed by the plan drafted in this chat. The chat's own plan stays as it is.</p>
            <Field label="Title" hint={`One line, at most ${MAX_TITLE_CHARS} characters.`}>
              {(ids) => <input {...ids} type="text" data-autofocus value={title} maxLength={MAX_TITLE_CHARS} onChange={(e) => edit(setTitle)(e.target.value)} />}
            </Field>
            <Field label="Brief" hint={`Markdown above the plan: what it is for and what is settled (at most ${MAX_HANDOFF_BRIEF_BYTES / 1024} KiB).`}>
              {(ids) => <textarea {...ids} rows={6} value={brief} onChange={(e) => edit(setBrief)(e.target.value)} />}
            </Field>
            {error && (
              <p className="panel-error" role="alert">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? "Handing off…" : "Hand off"}
              </button>
            </div>
          </form>
        </Dialog>
      )}
    </>
  );
}
