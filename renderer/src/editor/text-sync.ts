/**
 * The Automerge <-> CodeMirror binding for a plan document's body at ["text"]. automerge-codemirror declares its own
 * structural DocHandle type, which automerge-repo's DocHandle satisfies at runtime but not to the compiler (event
 * typings differ), hence the one cast, kept here.
 */
import { automergeSyncPlugin } from "@automerge/automerge-codemirror";
import type { DocHandle as CodeMirrorDocHandle } from "@automerge/automerge-codemirror";
import type { DocHandle } from "@automerge/automerge-repo";
import type { Extension } from "@codemirror/state";

export const TEXT_PATH = ["text"] as const;

export function textSync(handle: DocHandle<unknown>): Extension {
  return automergeSyncPlugin({ handle: handle as unknown as CodeMirrorDocHandle<unknown>, path: [...TEXT_PATH] });
}
