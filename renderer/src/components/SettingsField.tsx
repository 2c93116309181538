/** One labelled field of a Settings form, with its hint (or a warning in its place) tied to the input for screen readers. */
import { useId, type ReactNode } from "react";

export function Field(props: {
  label: string;
  hint?: string;
  /** Said in place of the hint while it applies (what was typed has a risk worth knowing before saving). */
  warning?: string | null;
  children: (ids: { id: string; "aria-describedby"?: string }) => ReactNode;
}) {
  const id = useId();
  const hintId = useId();
  const hint = props.warning ?? props.hint;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      {props.children({ id, ...(hint ? { "aria-describedby": hintId } : {}) })}
      {hint && (
        <span className={props.warning ? "field-hint is-warning" : "field-hint"} id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}
