/**
 * paceChanges: the first change after a quiet spell is handed on at once; changes during an interval are gathered
 * and handed on together when it ends; none is dropped; stop() ends it. Intervals are ended by hand (counts, not times).
 */
import { describe, expect, it } from "vitest";
import { paceChanges, type IntervalSchedule } from "./paced-changes.js";

function manualIntervals() {
  const running: (() => void)[] = [];
  const schedule: IntervalSchedule = (fire) => {
    running.push(fire);
    return () => running.splice(running.indexOf(fire), 1);
  };
  return { schedule, running, end: () => running.shift()?.() };
}

describe("paceChanges", () => {
  it("hands on the first change at once and the rest of a burst once, when the interval ends", () => {
    const intervals = manualIntervals();
    const flushed: string[][] = [];
    const paced = paceChanges((ids) => flushed.push([...ids]), intervals.schedule);
    paced.add(["a"]);
    expect(flushed).toEqual([["a"]]);
    for (let i = 0; i < 100; i++) paced.add([i % 2 ? "a" : "b"]);
    expect(flushed.length).toBe(1);

    intervals.end();
    expect(flushed).toEqual([["a"], ["b", "a"]]);
    // That flush began a new interval; with nothing gathered in it, its end hands on nothing.
    intervals.end();
    expect(flushed.length).toBe(2);
    expect(intervals.running.length).toBe(0);
    // Quiet again: the next change goes at once.
    paced.add(["c"]);
    expect(flushed.at(-1)).toEqual(["c"]);
  });

  it("stop() cancels the interval and hands on nothing more", () => {
    const intervals = manualIntervals();
    const flushed: string[][] = [];
    const paced = paceChanges((ids) => flushed.push([...ids]), intervals.schedule);
    paced.add(["a"]);
    paced.add(["b"]);
    paced.stop();
    expect(intervals.running.length).toBe(0);
    paced.add(["c"]);
    expect(flushed).toEqual([["a"]]);
  });
});
