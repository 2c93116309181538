/**
 * The keystroke bench page: one CodeMirror 6 editor (Markdown) over a 100 KB document, either plain (?mode=plain),
 * bound to an Automerge document in a local in-memory repo through @automerge/automerge-codemirror
 * (?mode=automerge), or the app's own plan editor (?mode=chopin: renderer/src/editor/plan-editor.ts with its live
 * preview, task checkboxes, size limit, keydown typing and its mirror, styled by the app's stylesheet, with the
 * document in the app's replica host: a Web Worker, as in the app). It records, per trusted keydown, the time until the browser's `input` event (its own
 * contenteditable insertion is done: CodeMirror has not seen the key yet), until the editor DOM changes
 * (MutationObserver: registered after CodeMirror's own observer, so it runs once CodeMirror has processed the
 * insertion, the binding included) and until after the next frame (requestAnimationFrame, then setTimeout 0).
 * Automerge and the app's editor are imported only in their modes.
 */
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { makeMarkdown } from "../../lib/markdown-doc.js";

const DOC_CHARS = 100_000;

interface PaintApi {
  /** Builds a read-only Markdown editor over `text` and resolves after the next frame: ms from call to painted. */
  paintText(text: string): Promise<number>;
}

interface BenchApi {
  mode: string;
  ready: Promise<void>;
  results(): { input: number[]; dom: number[]; paint: number[]; missedDom: number };
  reset(): void;
  editorLength(): number;
  /** The Automerge document's body length (chopin: once the replica host confirmed every edit), or null (plain). */
  automergeLength(): number | null | Promise<number | null>;
}

declare global {
  interface Window {
    bench: BenchApi;
    paint: PaintApi;
  }
}

const mode = new URLSearchParams(location.search).get("mode") ?? "plain";

// ?mode=paint: the cold-open suite's first paint of a snapshot text in a real browser (no typing instrumentation).
window.paint = {
  paintText(text) {
    const t0 = performance.now();
    const parent = document.getElementById("editor")!;
    parent.replaceChildren();
    new EditorView({
      state: EditorState.create({
        doc: text,
        extensions: [markdown(), EditorState.readOnly.of(true), EditorView.editable.of(false)],
      }),
      parent,
    });
    return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)));
  },
};

type Setup = { view: EditorView; automergeLength: () => number | null | Promise<number | null> };

async function setup(): Promise<Setup> {
  const extensions: Extension[] = [markdown(), history(), keymap.of([...defaultKeymap, ...historyKeymap])];
  let text = makeMarkdown(DOC_CHARS);
  let automergeLength: Setup["automergeLength"] = () => null;
  if (mode === "automerge") {
    const { Repo } = await import("@automerge/automerge-repo");
    const { automergeSyncPlugin } = await import("@automerge/automerge-codemirror");
    const repo = new Repo({ network: [] });
    const handle = repo.create<{ text: string }>({ text });
    await handle.whenReady();
    // The binding does not fill the editor: it must start from the document's current text (renderer.md).
    text = handle.doc().text;
    extensions.push(automergeSyncPlugin({ handle, path: ["text"] }));
    automergeLength = () => handle.doc().text.length;
  } else if (mode === "chopin") {
    return chopinEditor(text);
  } else if (mode !== "plain" && mode !== "paint") {
    throw new Error(`unknown mode ${mode}`);
  }
  const view = new EditorView({
    state: EditorState.create({ doc: text, extensions }),
    parent: document.getElementById("editor")!,
  });
  placeCaret(view);
  return { view, automergeLength };
}

function placeCaret(view: EditorView): void {
  const middle = Math.floor(view.state.doc.length / 2);
  view.dispatch({ selection: { anchor: middle }, effects: EditorView.scrollIntoView(middle, { y: "center" }) });
  view.focus();
}

/**
 * The app's plan editor, in the app's editor host element and stylesheet, mirroring a plan opened in the app's
 * replica host (a Web Worker; its network is a port nobody answers: the plan comes from its saved bytes).
 */
async function chopinEditor(text: string): Promise<Setup> {
  const [{ next: A }, { createPlanEditor }, { ReplicaClient }, { portLink }, { unconfirmedEdits }] = await Promise.all([
    import("@automerge/automerge"),
    import("../../../renderer/src/editor/plan-editor.js"),
    import("../../../renderer/src/replica-link/replica-client.js"),
    import("../../../renderer/src/replica-link/port-link.js"),
    import("../../../renderer/src/mirror/editor-mirror.js"),
    import("../../../renderer/src/styles.css"),
  ]);
  const { bytesToBase64 } = await import("../../../renderer/src/replica/base64.js");
  const { generateAutomergeUrl } = await import("@automerge/automerge-repo");
  const saved = bytesToBase64(A.save(A.from({ text })));
  const worker = new Worker(new URL("../../../renderer/src/replica/replica.worker.ts", import.meta.url), { type: "module" });
  const nobody = new MessageChannel();
  worker.postMessage({ t: "init", network: { kind: "port", port: nobody.port1 }, windowId: "bench", storage: null, coreLink: null }, [nobody.port1]);
  const client = new ReplicaClient({
    link: portLink(worker),
    api: { waitSaved: async (documentId) => ({ documentId, savedAt: Date.now() }), getDocument: async () => null as never, readSavedDocument: async () => saved },
    storage: null,
    notify: (message) => console.error(message),
  });
  const link = client.open(generateAutomergeUrl(), text, saved);
  let ready = false;
  link.on((event) => {
    if (event.t === "ready") ready = true;
  });
  const parent = document.getElementById("editor")!;
  parent.className = "editor-host";
  const view = createPlanEditor({ parent, text, mirror: link.mirror });
  placeCaret(view);
  await new Promise<void>((resolve) => {
    const check = () => (ready ? resolve() : setTimeout(check, 10));
    check();
  });
  // Every edit the host confirmed is in its Automerge document, whose body it mirrors.
  const confirmed = async () => {
    while (unconfirmedEdits(view.state) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    return view.state.doc.length;
  };
  return { view, automergeLength: confirmed };
}

const input: number[] = [];
const dom: number[] = [];
const paint: number[] = [];
let missedDom = 0;
let current: { t0: number; domSeen: boolean; inputSeen: boolean } | null = null;

const ready = (mode === "paint" ? Promise.resolve(null) : setup()).then((setupResult) => {
  if (!setupResult) return;
  const { view, automergeLength } = setupResult;
  new MutationObserver(() => {
    if (current && !current.domSeen) {
      current.domSeen = true;
      dom.push(performance.now() - current.t0);
    }
  }).observe(view.contentDOM, { childList: true, subtree: true, characterData: true });
  window.addEventListener(
    "keydown",
    () => {
      if (current && !current.domSeen) missedDom++;
      const entry = { t0: performance.now(), domSeen: false, inputSeen: false };
      current = entry;
      requestAnimationFrame(() => setTimeout(() => paint.push(performance.now() - entry.t0), 0));
    },
    true,
  );
  window.addEventListener(
    "input",
    () => {
      if (current && !current.inputSeen) {
        current.inputSeen = true;
        input.push(performance.now() - current.t0);
      }
    },
    true,
  );
  window.bench.editorLength = () => view.state.doc.length;
  window.bench.automergeLength = automergeLength;
});

window.bench = {
  mode,
  ready,
  results: () => ({ input: [...input], dom: [...dom], paint: [...paint], missedDom }),
  reset() {
    input.length = 0;
    dom.length = 0;
    paint.length = 0;
    missedDom = 0;
  },
  editorLength: () => -1,
  automergeLength: () => null,
};
