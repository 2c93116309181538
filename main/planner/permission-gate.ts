/**
 * The Planner's permission gate (issue #26, the seed's "Permission checks"): before any tool the Planner calls runs,
 * seven checks, in this order, decide whether it may: the person's admission at the relay (for a shared plan), that the
 * session belongs to the person now signed in, that this app still owns the channel under the generation the session
 * was made for, that the turn making the call was not stopped and its session generation is current (issue #27's
 * turn fence, turn-fence.ts, read from the conversation's replica), that the credential the session was made with is current and unexpired, push or admin on the bound
 * repository, and the GitHub App installation's access to it. For a plan bound to no repository the last two are not
 * applicable and say so; for a private plan the first is (no relay admits anyone to it).
 *
 * What must stay true: the decision comes before execution; the first failing check decides and names itself with
 * its reason; a check that cannot be answered (GitHub unreachable) refuses; nothing here caches beyond what the
 * permission facts already bound (GITHUB_PERMISSION_FACT_MAX_AGE_MS).
 */
import type { PermissionFact, PermissionFacts } from "../github/permission-facts.js";
import type { RepositoryBinding as PlanRepository } from "../../shared/schema/plan-document.js";
import { checkableBinding } from "./checkable-binding.js";
import type { TurnFence, TurnFenceRefusal } from "./turn-fence.js";

export const PERMISSION_CHECKS = ["instance-admission", "owner-session", "ownership-generation", "turn-fence", "credential", "repository-access", "installation-access"] as const;
export type PermissionCheck = (typeof PERMISSION_CHECKS)[number];

export type CheckOutcome = { check: PermissionCheck; outcome: "passed" | "not-applicable"; note?: string } | { check: PermissionCheck; outcome: "denied"; reason: string };

export type GateDecision = { allowed: true; checks: CheckOutcome[] } | { allowed: false; failed: PermissionCheck; reason: string; checks: CheckOutcome[] };

/** What a Planner session was made for: checked again before every tool call. */
export interface GateSession {
  channelId: string;
  /** The GitHub login the session was made for. */
  user: string;
  ownershipGeneration: number;
  /** The GitHub credential revision the session was made with; null when none is used (a configured provider). */
  credentialRevision: number | null;
  /** The turn making the call (its message and session generation); null when none of this session runs now. */
  turn: TurnFence | null;
}

export interface GateDeps {
  /** Whether the person is admitted at the relay now, for a shared plan; null for a private plan (not applicable). */
  admitted(channelId: string): { ok: true } | { ok: false; reason: string } | null;
  /** The GitHub login signed in now, or null. */
  currentUser(): string | null;
  /** The generation this app owns the channel under now, or null. */
  owns(channelId: string): number | null;
  facts: Pick<PermissionFacts, "isCredentialCurrent" | "hasPushOrAdmin" | "installationHasAccess">;
  /** The plan's repository binding now (read fresh: it may have been changed since the session began). */
  repository(channelId: string): Promise<PlanRepository | null>;
  /** Why a write of the turn must not be made now (turn-fence.ts), read from the conversation's replica. */
  turnFence(channelId: string, fence: TurnFence): Promise<TurnFenceRefusal | null>;
}

const fromFact = (check: PermissionCheck, fact: PermissionFact): CheckOutcome => (fact.ok ? { check, outcome: "passed" } : { check, outcome: "denied", reason: fact.message });

export async function checkPermission(deps: GateDeps, session: GateSession): Promise<GateDecision> {
  const checks: CheckOutcome[] = [];
  const decide = (): GateDecision | null => {
    const denied = checks.find((c) => c.outcome === "denied");
    return denied && denied.outcome === "denied" ? { allowed: false, failed: denied.check, reason: denied.reason, checks } : null;
  };

  const admitted = deps.admitted(session.channelId);
  checks.push(
    admitted === null
      ? { check: "instance-admission", outcome: "not-applicable", note: "A private plan: no relay admits anyone to it." }
      : admitted.ok
        ? { check: "instance-admission", outcome: "passed" }
        : { check: "instance-admission", outcome: "denied", reason: admitted.reason },
  );
  if (decide()) return decide()!;

  const user = deps.currentUser();
  checks.push(
    user !== null && user.toLowerCase() === session.user.toLowerCase()
      ? { check: "owner-session", outcome: "passed" }
      : { check: "owner-session", outcome: "denied", reason: user === null ? "Nobody is signed in to GitHub on this app any more." : `The session was made for ${session.user}; ${user} is signed in now.` },
  );
  if (decide()) return decide()!;

  const generation = deps.owns(session.channelId);
  checks.push(
    generation === session.ownershipGeneration
      ? { check: "ownership-generation", outcome: "passed" }
      : {
          check: "ownership-generation",
          outcome: "denied",
          reason: generation === null ? `This app no longer runs the Planner here (the session was made under ownership generation ${session.ownershipGeneration}).` : `The session was made under ownership generation ${session.ownershipGeneration}; this app runs the Planner under ${generation} now.`,
        },
  );
  if (decide()) return decide()!;

  const fenced = session.turn === null ? { reason: "No turn of this session is running any more (it ended or was stopped), so it calls no tool." } : await deps.turnFence(session.channelId, session.turn);
  checks.push(fenced === null ? { check: "turn-fence", outcome: "passed" } : { check: "turn-fence", outcome: "denied", reason: fenced.reason });
  if (decide()) return decide()!;

  checks.push(
    session.credentialRevision === null
      ? { check: "credential", outcome: "not-applicable", note: "The Planner runs on a configured provider; no GitHub credential is in use." }
      : fromFact("credential", deps.facts.isCredentialCurrent(session.credentialRevision)),
  );
  if (decide()) return decide()!;

  const repository = await deps.repository(session.channelId);
  if (repository === null) {
    const note = "The plan is bound to no repository.";
    checks.push({ check: "repository-access", outcome: "not-applicable", note }, { check: "installation-access", outcome: "not-applicable", note });
    return { allowed: true, checks };
  }
  const checkable = checkableBinding(repository);
  if ("refusal" in checkable) {
    checks.push({ check: "repository-access", outcome: "denied", reason: checkable.refusal });
    return decide()!;
  }
  const { binding } = checkable;
  checks.push(fromFact("repository-access", await deps.facts.hasPushOrAdmin(binding)));
  if (decide()) return decide()!;
  checks.push(fromFact("installation-access", await deps.facts.installationHasAccess(binding)));
  return decide() ?? { allowed: true, checks };
}
