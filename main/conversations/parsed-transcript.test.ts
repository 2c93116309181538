/**
 * The kept-up-to-date transcript always equals reading the document afresh (readEntries): for entries added at the
 * end, written concurrently (sorting between older ones), changed in place (a withdrawal), unreadable, and merged from
 * another replica, checked by a fast-check run of random histories.
 */
import { next as A } from "@automerge/automerge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readEntries, type ConversationDocument } from "../../shared/schema/conversation.js";
import { ParsedTranscript } from "./parsed-transcript.js";

const id = (n: number) => n.toString(16).padStart(32, "0");
const entry = (n: number, seq: number, at: number) => ({ id: id(n), seq, author: { kind: "system" }, to: "room", text: `entry ${n}`, at, clientRequestId: `r${n}` });
const start = () => A.from<ConversationDocument>({ schemaVersion: 1, kind: "conversation", planId: "p", entries: {} });

type Step = { kind: "add"; seq: number; at: number } | { kind: "withdraw"; which: number } | { kind: "bad" } | { kind: "merge"; seq: number };

describe("a conversation's entries kept up to date", () => {
  it("equal a fresh read after every change, whatever the changes", () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), seq: fc.integer({ min: 1, max: 30 }), at: fc.integer({ min: 0, max: 1000 }) }),
      fc.record({ kind: fc.constant("withdraw" as const), which: fc.nat(50) }),
      fc.record({ kind: fc.constant("bad" as const) }),
      fc.record({ kind: fc.constant("merge" as const), seq: fc.integer({ min: 1, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let doc = start();
        const kept = new ParsedTranscript();
        let n = 0;
        for (const s of steps) {
          const k = ++n;
          if (s.kind === "add") doc = A.change(doc, (d) => void (d.entries[id(k)] = entry(k, s.seq, s.at)));
          else if (s.kind === "withdraw") {
            const keys = Object.keys(doc.entries);
            const key = keys[s.which % Math.max(1, keys.length)];
            if (key) doc = A.change(doc, (d) => void ((d.entries[key] as { withdrawnAt?: number }).withdrawnAt = k));
          } else if (s.kind === "bad") doc = A.change(doc, (d) => void (d.entries[id(k)] = { id: id(k), seq: "nope" }));
          else {
            let other = A.clone(doc);
            other = A.change(other, (d) => void (d.entries[id(k)] = entry(k, s.seq, 0)));
            doc = A.merge(doc, other);
          }
          expect(kept.read(doc)).toEqual(readEntries(doc));
        }
      }),
      { numRuns: 100 },
    );
  });
});
