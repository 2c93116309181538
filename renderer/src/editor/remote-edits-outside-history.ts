/**
 * Fix for @automerge/automerge-codemirror 0.2.0: the plugin applies other people's edits as ordinary CodeMirror
 * transactions, so they land in this window's undo history and Ctrl+Z undoes someone else's typing. This extender
 * marks every reconcile transaction of the plugin (recognised by the plugin's own annotation) as not-for-history;
 * @codemirror/commands then maps the local history through them instead of recording them.
 * What must stay true: undo only ever reverts edits made in this editor.
 */
import { EditorState, Transaction } from "@codemirror/state";
// The package has no exports map; index.js re-exports from this same module, so the annotation is the same object.
import { isReconcileTx } from "@automerge/automerge-codemirror/dist/plugin.js";

export const remoteEditsOutsideHistory = EditorState.transactionExtender.of((tr) =>
  isReconcileTx(tr) ? { annotations: Transaction.addToHistory.of(false) } : null,
);
