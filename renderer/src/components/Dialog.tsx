/**
 * A modal dialog: role "dialog", named by its title, focus moved inside on open and returned on close. Escape is
 * handled once, globally (App), so stacked dialogs close one at a time.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Icon } from "./Icons.js";

export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** Hide the visible heading (the dialog keeps the title as its accessible name). */
  hideTitle?: boolean;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>("[data-autofocus], input, textarea, select, button:not(.dialog-close)");
    first?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div ref={ref} className={`dialog ${props.className ?? ""}`} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className={props.hideTitle ? "visually-hidden" : "dialog-header"}>
          <h2 id={titleId} className="dialog-title">
            {props.title}
          </h2>
          {!props.hideTitle && (
            <button type="button" className="icon-button dialog-close" aria-label="Close" onClick={props.onClose}>
              <Icon name="close" />
            </button>
          )}
        </div>
        {props.children}
      </div>
    </div>
  );
}
