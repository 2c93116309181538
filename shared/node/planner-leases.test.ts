import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLANNER_LEASE_TABLE_SQL, PlannerLeases, type LeaseHolder } from "./planner-leases.js";

const TTL = 30_000;

function table(): { leases: PlannerLeases; clock: { now: number }; reopen(): PlannerLeases; db: Database.Database } {
  const db = new Database(":memory:");
  db.exec(PLANNER_LEASE_TABLE_SQL);
  const clock = { now: 1_000_000 };
  const open = () => new PlannerLeases(db, { ttlMs: TTL, now: () => clock.now });
  return { leases: open(), clock, reopen: open, db };
}

const alice: LeaseHolder = { user: "alice", device: "device-a", session: "run-1" };
const bob: LeaseHolder = { user: "bob", device: "device-b", session: "run-1" };

describe("planner leases", () => {
  it("give a channel to the first claim, refuse the second, and number each new owner", () => {
    const { leases } = table();
    expect(leases.state("c")).toEqual({ channelId: "c", generation: 0, owner: null, expiresAt: null });
    const first = leases.claim("c", alice);
    expect(first).toMatchObject({ ok: true, fresh: true, state: { generation: 1, owner: alice } });
    expect(leases.claim("c", bob)).toMatchObject({ ok: false, state: { generation: 1, owner: alice } });
    expect(leases.claim("c", alice)).toMatchObject({ ok: true, fresh: false, state: { generation: 1 } });
    expect(leases.claim("other", bob)).toMatchObject({ ok: true, state: { generation: 1, owner: bob } });
  });

  it("let the lease expire by the table's clock alone, exactly at TTL, and give the next owner generation + 1", () => {
    const { leases, clock } = table();
    leases.claim("c", alice);
    clock.now += TTL - 1;
    expect(leases.state("c").owner).toEqual(alice);
    expect(leases.accepts("c", alice, 1)).toBe(true);
    expect(leases.accepts("c", bob, 1)).toBe(false);
    clock.now += 1;
    expect(leases.state("c")).toMatchObject({ owner: null, generation: 1 });
    expect(leases.accepts("c", alice, 1)).toBe(false);
    expect(leases.renew("c", alice, 1)).toMatchObject({ ok: false });
    expect(leases.claim("c", bob)).toMatchObject({ ok: true, state: { generation: 2, owner: bob } });
    expect(leases.accepts("c", alice, 1)).toBe(false);
    expect(leases.accepts("c", bob, 2)).toBe(true);
  });

  it("renew only the owner of the generation it names", () => {
    const { leases, clock } = table();
    leases.claim("c", alice);
    clock.now += TTL - 10;
    expect(leases.renew("c", alice, 1)).toMatchObject({ ok: true, state: { generation: 1, expiresAt: clock.now + TTL } });
    expect(leases.renew("c", alice, 2)).toMatchObject({ ok: false });
    expect(leases.renew("c", { ...alice, session: "run-2" }, 1)).toMatchObject({ ok: false });
    expect(leases.renew("c", bob, 1)).toMatchObject({ ok: false });
  });

  it("release and reset end the lease and keep the generation; the next owner's is one more", () => {
    const { leases } = table();
    leases.claim("c", alice);
    expect(leases.release("c", bob, 1).owner).toEqual(alice);
    expect(leases.release("c", alice, 1)).toEqual({ channelId: "c", generation: 1, owner: null, expiresAt: null });
    leases.claim("c", bob);
    const { before, after } = leases.reset("c");
    expect(before).toMatchObject({ generation: 2, owner: bob });
    expect(after).toMatchObject({ generation: 2, owner: null });
    expect(leases.claim("c", alice).state.generation).toBe(3);
  });

  it("release what an earlier run of the same app held, at its start, and nothing of anyone else's", () => {
    const { leases } = table();
    leases.claim("c1", alice);
    leases.claim("c2", alice);
    leases.claim("c3", bob);
    const restarted = { ...alice, session: "run-2" };
    expect(leases.releaseEarlierRuns(restarted.user, restarted.device, restarted.session).sort()).toEqual(["c1", "c2"]);
    expect(leases.state("c1")).toMatchObject({ owner: null, generation: 1 });
    expect(leases.state("c3").owner).toEqual(bob);
    expect(leases.claim("c1", restarted).state.generation).toBe(2);
  });

  it("keep the generation across a restart of the table", () => {
    const { leases, reopen } = table();
    leases.claim("c", alice);
    leases.reset("c");
    expect(reopen().claim("c", bob).state.generation).toBe(2);
  });
});

type Step =
  | { kind: "claim"; who: number }
  | { kind: "renew"; who: number }
  | { kind: "release"; who: number }
  | { kind: "reset" }
  | { kind: "tick"; ms: number }
  | { kind: "write"; who: number }
  | { kind: "restart" };

const HOLDERS: LeaseHolder[] = [alice, bob, { user: "carol", device: "device-c", session: "run-1" }];

describe("planner leases, as a model of claims, renewals, expiry, resets, restarts and late writes", () => {
  it("never has two owners, never gives one generation to two owners, and never accepts a write of an earlier generation", () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant("claim" as const), who: fc.nat(2) }),
      fc.record({ kind: fc.constant("renew" as const), who: fc.nat(2) }),
      fc.record({ kind: fc.constant("release" as const), who: fc.nat(2) }),
      fc.record({ kind: fc.constant("reset" as const) }),
      fc.record({ kind: fc.constant("tick" as const), ms: fc.integer({ min: 0, max: TTL * 2 }) }),
      fc.record({ kind: fc.constant("write" as const), who: fc.nat(2) }),
      fc.record({ kind: fc.constant("restart" as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const t = table();
        let leases = t.leases;
        // What each app believes: the generation it was last granted (it writes under it until told otherwise).
        const believed: (number | null)[] = [null, null, null];
        const grantedTo = new Map<number, number>();
        let highest = 0;
        for (const s of steps) {
          if (s.kind === "tick") t.clock.now += s.ms;
          else if (s.kind === "restart") leases = t.reopen();
          else if (s.kind === "reset") leases.reset("c");
          else if (s.kind === "claim" || s.kind === "renew") {
            const holder = HOLDERS[s.who]!;
            const out = s.kind === "claim" ? leases.claim("c", holder) : leases.renew("c", holder, believed[s.who] ?? -1);
            if (out.ok) {
              const g = out.state.generation;
              // One generation, one owner; a new owner's generation is exactly one more than any before.
              if (grantedTo.has(g)) expect(grantedTo.get(g)).toBe(s.who);
              else {
                expect(g).toBe(highest + 1);
                grantedTo.set(g, s.who);
                highest = g;
              }
              believed[s.who] = g;
            }
          } else if (s.kind === "release") leases.release("c", HOLDERS[s.who]!, believed[s.who] ?? -1);
          else if (s.kind === "write") {
            const g = believed[s.who];
            if (g !== null && leases.accepts("c", HOLDERS[s.who]!, g)) {
              // Accepted only from the current owner, in the current (highest) generation.
              expect(g).toBe(highest);
              expect(leases.state("c").owner).toEqual(HOLDERS[grantedTo.get(g)!]);
              expect(grantedTo.get(g)).toBe(s.who);
            }
          }
          const now = leases.state("c");
          expect(now.generation).toBe(highest);
          if (now.owner) expect(HOLDERS[grantedTo.get(now.generation)!]).toEqual(now.owner);
        }
      }),
      { numRuns: 300 },
    );
  });
});
