/**
 * Test helper: one editor mirror session wired as the app wires it, with real parts: a remote person's Repo (the
 * core side) linked to the window's replica Repo, a TextAuthority on the replica's handle, and a CodeMirror editor
 * mirroring it across a real MessageChannel (the worker boundary's transport).
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle } from "@automerge/automerge-repo";
import { history } from "@codemirror/commands";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { linkedRepos } from "../test/linked-repos.js";
import { editorMirror, type MirrorEnd } from "./editor-mirror.js";
import type { AuthorityToMirror } from "./protocol.js";
import { TextAuthority } from "./text-authority.js";

export interface MirrorSession {
  remote: DocHandle<PlanDocument>;
  mine: DocHandle<PlanDocument>;
  authority: TextAuthority;
  view: EditorView;
  /** Every message the authority sent, in order. */
  sent: AuthorityToMirror[];
  /** Starts the authority on the replica's handle (the document finished loading). */
  attach(): void;
  /** The remote person edits the body. */
  remoteSplice(at: number, remove: number, insert?: string): void;
  close(): void;
}

export async function mirrorSession(options: {
  text: string;
  /** The mirror's starting text; defaults to the document's (a fresh snapshot). */
  baseText?: string;
  /** Remote edits made after the snapshot and before the window loads the document. */
  beforeLoad?: (remote: DocHandle<PlanDocument>) => void;
  attached?: boolean;
  extensions?: Extension[];
  name?: string;
  now?: () => number;
  updatedAt?: number;
}): Promise<MirrorSession> {
  const repos = linkedRepos();
  const remote = repos.core.create<PlanDocument>({ text: options.text, title: "Plan", authors: {}, updatedAt: options.updatedAt ?? 0 } as unknown as PlanDocument);
  options.beforeLoad?.(remote);
  const mine = await repos.replica.find<PlanDocument>(remote.url);
  const { port1, port2 } = new MessageChannel();
  const sent: AuthorityToMirror[] = [];
  const baseText = options.baseText ?? options.text;
  const authority = new TextAuthority({
    baseText,
    send: (message) => {
      sent.push(message);
      port1.postMessage(message);
    },
    displayName: () => options.name ?? "Ada",
    now: options.now,
  });
  port1.onmessage = (event) => authority.receive(event.data);
  const end: MirrorEnd = {
    post: (message) => port2.postMessage(message),
    listen: (listener) => {
      port2.onmessage = (event) => listener(event.data);
      return () => {
        port2.onmessage = null;
      };
    },
  };
  const view = new EditorView({
    state: EditorState.create({ doc: baseText, extensions: [history(), editorMirror(end, { clientID: "mirror" }), ...(options.extensions ?? [])] }),
    parent: document.body,
  });
  let attached = false;
  const session: MirrorSession = {
    remote,
    mine,
    authority,
    view,
    sent,
    attach() {
      if (attached) return;
      attached = true;
      authority.attach(mine);
    },
    remoteSplice(at, remove, insert = "") {
      remote.change((d) => A.splice(d, ["text"], at, remove, insert));
    },
    close() {
      view.destroy();
      authority.detach();
      port1.close();
      port2.close();
      repos.close();
    },
  };
  if (options.attached !== false) session.attach();
  return session;
}

/** The editor, the window's replica and the remote person all hold `text`. */
export function allHold(session: MirrorSession, text: string): boolean {
  return session.view.state.doc.toString() === text && session.mine.doc().text === text && session.remote.doc().text === text;
}
