/**
 * Asks before an action that cannot be undone or takes something out (deleting a document, restoring a version over
 * teammates' changes). When the action removed what asked (a restore's banner), the focus goes where the request
 * says (onFocusLost), else to the document list.
 */
import { useState } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { Dialog } from "./Dialog.js";

export function ConfirmDialog() {
  const { ui } = useServices();
  const confirm = useStore(ui, (s) => s.confirm);
  const [busy, setBusy] = useState(false);
  if (!confirm) return null;
  const close = () => ui.getState().closeConfirm();
  return (
    <Dialog title={confirm.title} onClose={close} className="dialog-small" onFocusLost={confirm.onFocusLost}>
      <p className="dialog-text">{confirm.message}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className={confirm.danger === false ? "button button-primary" : "button button-danger"}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await confirm.onConfirm();
            } finally {
              setBusy(false);
              close();
            }
          }}
        >
          {confirm.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
