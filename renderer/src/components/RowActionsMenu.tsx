/**
 * A row's "More actions" menu button, usable from the keyboard the way WAI-ARIA's menu button pattern describes:
 * opening moves focus to the first item (ArrowUp on the button: the last), ArrowUp/ArrowDown/Home/End move between
 * items, Escape closes and puts focus back on the button, Tab closes and lets focus move on; choosing an item puts
 * focus back on the button before the item acts (so a dialog it opens returns there). What must stay true: focus never
 * stays on a closed menu's item, and Escape inside the menu closes only the menu (nothing behind it).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Icon } from "./Icons.js";

export interface RowAction {
  label: string;
  onSelect(): void;
  danger?: boolean;
  /** While set, this item is announced as unavailable, says this on hover, and does nothing when chosen. */
  disabledReason?: string | null;
}

export interface RowActionsMenuProps {
  /** The button's accessible name, e.g. "More actions for Plan". */
  label: string;
  /** The menu's accessible name. */
  menuLabel: string;
  actions: RowAction[];
  /** While set, every item is announced as unavailable, says this on hover, and does nothing when chosen. */
  disabledReason?: string | null;
  /** The button's tabindex (-1 inside a list that moves focus with the arrow keys). */
  buttonTabIndex?: number;
}

export function RowActionsMenu({ label, menuLabel, actions, disabledReason = null, buttonTabIndex }: RowActionsMenuProps) {
  // null: closed; otherwise the index of the item to focus when the menu opens.
  const [openAt, setOpenAt] = useState<number | null>(null);
  const anchorRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const open = openAt !== null;

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!anchorRef.current?.contains(e.target as Node)) setOpenAt(null);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  useEffect(() => {
    if (openAt === null) return;
    // Only opening sets openAt; later moves are made by the key handler without re-rendering.
    items()[openAt]?.focus();
  }, [openAt]);

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  const close = (returnFocus: boolean) => {
    setOpenAt(null);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpenAt(e.key === "ArrowDown" ? 0 : actions.length - 1);
    }
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    switch (e.key) {
      case "ArrowDown":
        return move(at + 1);
      case "ArrowUp":
        return move(at < 0 ? list.length - 1 : at - 1);
      case "Home":
        return move(0);
      case "End":
        return move(list.length - 1);
      case "Escape":
        e.preventDefault();
        // The window's Escape (closing dialogs, the version view) must not fire for a menu's Escape.
        e.stopPropagation();
        return close(true);
      case "Tab":
        return close(false);
    }
  };

  return (
    <div className="doc-menu-anchor" ref={anchorRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button doc-menu-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        tabIndex={buttonTabIndex}
        onClick={() => setOpenAt(open ? null : 0)}
        onKeyDown={onButtonKey}
      >
        <Icon name="more" />
      </button>
      {open && (
        <div className="menu" role="menu" aria-label={menuLabel} ref={menuRef} onKeyDown={onMenuKey}>
          {actions.map((action) => {
            // The whole menu's reason (the core is unreachable) wins over one item's own.
            const reason = disabledReason ?? action.disabledReason ?? null;
            return (
              <button
                key={action.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={action.danger ? "is-danger" : undefined}
                aria-disabled={reason ? true : undefined}
                title={reason ?? undefined}
                onClick={() => {
                  if (reason) return;
                  close(true);
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
