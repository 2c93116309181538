import { beforeEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { changeMetasSince } from "../../shared/node/change-meta.js";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import { MAX_NAME_RECORD_OPS, namesAsMade } from "./names-as-made.js";

type Doc = { text: string; authors: Record<string, string>; updatedAt: number };

function fresh(): A.Doc<Doc> {
  return A.change(A.init<Doc>(), (d) => {
    d.text = "";
    d.authors = {};
    d.updatedAt = 0;
  });
}

/** Hashes of the text edits made through edit() below, in order. */
let edits: string[] = [];
beforeEach(() => {
  edits = [];
});

function edit(doc: A.Doc<Doc>, insert: string, also: (d: Doc) => void = () => {}): A.Doc<Doc> {
  const next = A.change(doc, (d) => {
    A.splice(d, ["text"], d.text.length, 0, insert);
    also(d);
  });
  edits.push(A.getHeads(next)[0]);
  return next;
}

/** The core's way (authors.ts): the name is recorded inside the change it names, only when it differs. */
function coreEdit(doc: A.Doc<Doc>, name: string, insert: string): A.Doc<Doc> {
  return edit(doc, insert, (d) => {
    if (d.authors[A.getActorId(d)] !== name) d.authors[A.getActorId(d)] = name;
  });
}

/** A window's way (renderer/src/editor/edit-metadata.ts): the edit, then a change of its own naming the actor. */
function windowEdit(doc: A.Doc<Doc>, name: string, insert: string): A.Doc<Doc> {
  const edited = edit(doc, insert);
  if (edited.authors[A.getActorId(edited)] === name) return edited;
  return A.change(edited, (d) => {
    d.authors[A.getActorId(d)] = name;
    d.updatedAt += 1;
  });
}

/** The names of the edits made through edit(), in the order they were made. */
function textNames(doc: A.Doc<Doc>): (string | undefined)[] {
  const names = namesAsMade(doc, changeMetasSince(doc, []));
  return edits.map((hash) => names.get(hash));
}

describe("namesAsMade", () => {
  it("names each core change by the name recorded in it or before it, not by the current one", () => {
    let doc = fresh();
    doc = coreEdit(doc, "Alice", "a");
    doc = coreEdit(doc, "Alice", "b");
    doc = coreEdit(doc, "Al", "c");
    doc = coreEdit(doc, "Al", "d");
    doc = coreEdit(doc, "Alice", "e");
    expect(textNames(doc)).toEqual(["Alice", "Alice", "Al", "Al", "Alice"]);
    expect(Object.values(doc.authors)).toEqual(["Alice"]);
  });

  it("a name recorded inside a change with an edit does not rename the change before it", () => {
    let doc = fresh();
    doc = coreEdit(doc, "Alice", "a");
    doc = edit(doc, "b");
    doc = coreEdit(doc, "Al", "c");
    expect(textNames(doc)).toEqual(["Alice", "Alice", "Al"]);
  });

  it("names a window's edit by the name its actor records right after it; earlier edits keep theirs", () => {
    let doc = fresh();
    doc = windowEdit(doc, "Alice", "a");
    doc = windowEdit(doc, "Alice", "b");
    doc = windowEdit(doc, "Al", "c");
    doc = windowEdit(doc, "Al", "d");
    expect(textNames(doc)).toEqual(["Alice", "Alice", "Al", "Al"]);
  });

  it("keeps actors apart, and merged replicas name each actor's changes by that actor's records", () => {
    let ada = coreEdit(fresh(), "Ada", "a");
    let grace = windowEdit(A.clone(ada), "Grace", "g");
    ada = coreEdit(A.merge(ada, grace), "Ada L.", "b");
    grace = windowEdit(A.merge(grace, ada), "Grace H.", "h");
    expect(textNames(A.merge(ada, grace))).toEqual(["Ada", "Grace", "Ada L.", "Grace H."]);
  });

  it("leaves out changes made before their actor recorded any name", () => {
    let doc = fresh();
    doc = edit(doc, "x");
    doc = edit(doc, "y");
    doc = coreEdit(doc, "Ada", "z");
    expect(textNames(doc)).toEqual([undefined, undefined, "Ada"]);
    const noMap = A.change(A.init<{ text: string }>(), (d) => void (d.text = "hi"));
    expect(namesAsMade(noMap, changeMetasSince(noMap, [])).size).toBe(0);
  });

  it(`takes a change of up to MAX_NAME_RECORD_OPS (${MAX_NAME_RECORD_OPS}) ops for a name record, and not one more`, () => {
    // A rename recorded as a window records it: the name's text object, one op per character, and updatedAt.
    const renamedTo = (chars: number) => {
      edits = [];
      let doc = coreEdit(fresh(), "Old", "a");
      doc = edit(doc, "x");
      doc = A.change(doc, (d) => {
        d.authors[A.getActorId(d)] = "n".repeat(chars);
        d.updatedAt = 1;
      });
      const last = changeMetasSince(doc, []).at(-1)!;
      return { ops: last.maxOp - last.startOp + 1, names: textNames(doc) };
    };
    const atBound = renamedTo(MAX_NAME_RECORD_OPS - 2);
    expect(atBound.ops).toBe(MAX_NAME_RECORD_OPS);
    expect(atBound.names).toEqual(["Old", "n".repeat(MAX_NAME_RECORD_OPS - 2)]);
    const above = renamedTo(MAX_NAME_RECORD_OPS - 1);
    expect(above.ops).toBe(MAX_NAME_RECORD_OPS + 1);
    expect(above.names).toEqual(["Old", "Old"]);
    // The largest record the app makes fits: a new authors map, a MAX_DISPLAY_NAME_CHARS name, and updatedAt.
    const largest = A.change(A.change(A.init<Partial<Doc>>(), (d) => void (d.text = "")), (d) => {
      d.authors = {};
      d.authors[A.getActorId(d)] = "n".repeat(MAX_DISPLAY_NAME_CHARS);
      d.updatedAt = 1;
    });
    const meta = changeMetasSince(largest, []).at(-1)!;
    expect(meta.maxOp - meta.startOp + 1).toBeLessThanOrEqual(MAX_NAME_RECORD_OPS);
  });

  it("finds every rename among thousands of changes", () => {
    let doc = fresh();
    const expected: string[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const name = `Name ${Math.floor(i / 700)}`;
      doc = i % 2 ? coreEdit(doc, name, "x") : windowEdit(doc, name, "x");
      expected.push(name);
    }
    expect(textNames(doc)).toEqual(expected);
  }, 60_000);
});
