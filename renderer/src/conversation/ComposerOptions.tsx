/**
 * The composer's pickers' list (the `#` references, the `/` commands): a listbox the keyboard drives from the text box
 * (its `aria-activedescendant` names `${id}-${n}`), so focus never leaves the message; a pointer picks on mousedown.
 */
import type { ReactNode } from "react";

export function ComposerOptions<T>({ id, label, className, options, active, keyOf, render, onPick }: {
  id: string;
  label: string;
  className: string;
  options: readonly T[];
  active: number;
  keyOf(option: T): string;
  render(option: T): ReactNode;
  onPick(option: T): void;
}) {
  return (
    <ul className={className} role="listbox" id={id} aria-label={label}>
      {options.map((option, n) => (
        <li
          key={keyOf(option)}
          id={`${id}-${n}`}
          role="option"
          aria-selected={n === active}
          className={n === active ? "is-active" : undefined}
          // mousedown, not click: a click would first take the focus out of the text box.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(option);
          }}
        >
          {render(option)}
        </li>
      ))}
    </ul>
  );
}
