/**
 * A modal dialog: role "dialog", named by its title. Focus starts on the first sensible control (one marked
 * data-autofocus, else the first one that is not Close), Tab and Shift+Tab cycle within the dialog, and on close the
 * focus returns to the element that opened it, or, when that is gone (a deleted row, a button replaced), to
 * `onFocusLost` (by default the document list). Escape is handled once, globally (App), so stacked dialogs close one
 * at a time.
 * What must stay true: while a dialog is open, keyboard focus never leaves it; after it closes, focus is never left
 * on the page's <body>.
 */
import { useContext, useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { AppServicesContext } from "../state/app-services.js";
import { Icon } from "./Icons.js";
import { tabbables } from "./tabbables.js";

export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /** Hide the visible heading (the dialog keeps the title as its accessible name). */
  hideTitle?: boolean;
  /** Where focus goes on close when the element that opened the dialog is gone (default: the document list). */
  onFocusLost?: () => void;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const services = useContext(AppServicesContext);
  const focusLost = useRef<() => void>(() => undefined);
  focusLost.current = props.onFocusLost ?? (() => services?.ui.getState().focusDocumentList());

  useEffect(() => {
    const root = ref.current;
    const previous = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (root) {
      const controls = tabbables(root);
      const first = root.querySelector<HTMLElement>("[data-autofocus]") ?? controls.find((el) => !el.classList.contains("dialog-close")) ?? controls[0] ?? root;
      first.focus();
    }
    return () => {
      if (previous?.isConnected) previous.focus();
      else focusLost.current();
    };
  }, []);

  const trap = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Tab" || !ref.current) return;
    const controls = tabbables(ref.current);
    const active = document.activeElement;
    if (controls.length === 0) {
      e.preventDefault();
      return;
    }
    const at = controls.indexOf(active as HTMLElement);
    if (e.shiftKey && at <= 0) {
      e.preventDefault();
      controls[controls.length - 1].focus();
    } else if (!e.shiftKey && (at === -1 || at === controls.length - 1)) {
      e.preventDefault();
      controls[0].focus();
    }
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        ref={ref}
        className={`dialog ${props.className ?? ""}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={trap}
      >
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
