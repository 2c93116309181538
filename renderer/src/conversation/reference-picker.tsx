/**
 * The composer's `#` picker (issue #26): typing `#` and a few letters offers documents to reference, best matches
 * first; picking one takes the `#words` out of the text and adds the document as a reference chip, which the message
 * carries (with its revision, recorded by the core) for the Planner's read_reference.
 *
 * What must stay true: the plan itself is never offered; a shared plan is offered only shared documents (a private
 * document's title must not reach teammates); the list is a listbox the keyboard drives from the text box
 * (aria-activedescendant), so focus never leaves the message.
 */
import { useEffect, useState } from "react";
import type { DocumentSummary } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { ComposerOptions } from "./ComposerOptions.js";
import { REFERENCE_QUERY_MAX_CHARS, REFERENCE_SUGGESTIONS_SHOWN } from "../limits.js";

export interface ReferenceQuery {
  /** Where the `#` is in the text. */
  start: number;
  /** What follows it, up to the caret. */
  query: string;
}

const HASH_TOKEN = new RegExp(`(^|\\s)#([^\\s#]{0,${REFERENCE_QUERY_MAX_CHARS}})$`);

/** The `#words` the caret is at the end of, or null. */
export function referenceQueryAt(text: string, caret: number): ReferenceQuery | null {
  const match = HASH_TOKEN.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** The documents to offer for `query`, or null while there is no `#` at the caret. */
export function useReferenceCandidates(query: string | null, planId: string, sharedOnly: boolean): DocumentSummary[] {
  const { bridge } = useServices();
  const [found, setFound] = useState<DocumentSummary[]>([]);
  useEffect(() => {
    if (query === null) {
      setFound([]);
      return;
    }
    let live = true;
    bridge.api.listDocuments(query ? { query } : undefined).then(
      (documents) => {
        if (!live) return;
        setFound(documents.filter((d) => d.id !== planId && (!sharedOnly || d.shared)).slice(0, REFERENCE_SUGGESTIONS_SHOWN));
      },
      () => live && setFound([]),
    );
    return () => {
      live = false;
    };
  }, [bridge, query, planId, sharedOnly]);
  return found;
}

export function ReferenceOptions({ id, options, active, onPick }: { id: string; options: DocumentSummary[]; active: number; onPick(document: DocumentSummary): void }) {
  return <ComposerOptions id={id} label="Documents to reference" className="reference-options" options={options} active={active} keyOf={(option) => option.id} render={(option) => `#${option.title}`} onPick={onPick} />;
}
