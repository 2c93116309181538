/**
 * What a new Planner session may read of its plan's repository (issues #3, #26): decided once, when the session is
 * made. An unbound plan has no repository; a bound one is followed by its numeric id (so a rename, a transfer or a new
 * default branch is seen) and pinned to its default branch's head commit at that moment, with the owner's credential.
 * Every repository tool of the session reads that commit and nothing else, for as long as the session lives; a new
 * session (after `/new`, a reset, a credential refresh) pins afresh.
 *
 * What must stay true: pinning never throws: when it fails (no sign-in, no access, GitHub unreachable, a binding made
 * by name only) the answer says why in a sentence a person can act on, and the session is made without repository
 * tools; the binding and the commit come from the plan and GitHub, never from anything the model says.
 */
import type { RepositoryBinding as PlanRepository } from "../../shared/schema/plan-document.js";
import { ChopinError } from "../../shared/errors.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { captureSessionPin, followBinding } from "../github/repository-binding.js";
import type { ToolContext } from "../github/repository-tools/index.js";
import type { GitHubRest } from "../github/rest-client.js";
import { checkableBinding } from "./checkable-binding.js";

export type RepositoryAccess =
  | { kind: "unbound" }
  | { kind: "pinned"; context: ToolContext }
  /** `repository` is "owner/name" as the plan records it; `reason` one sentence. */
  | { kind: "unavailable"; repository: string; reason: string };

export interface RepositoryPinDeps {
  /** The plan's repository binding now, or null. */
  repository(planId: string): Promise<PlanRepository | null>;
  /** GitHub's REST client on the owner's credential (read at each call), or null where GitHub is not set up. */
  rest: GitHubRest | null;
}

/** The plan's repository as a new session may read it: unbound, pinned, or unavailable and why. */
export async function pinRepository(deps: RepositoryPinDeps, planId: string): Promise<RepositoryAccess> {
  const bound = await deps.repository(planId);
  if (bound === null) return { kind: "unbound" };
  const repository = `${bound.owner}/${bound.name}`;
  const checkable = checkableBinding(bound);
  if ("refusal" in checkable) return { kind: "unavailable", repository, reason: checkable.refusal };
  if (deps.rest === null) return { kind: "unavailable", repository, reason: "GitHub sign-in is not set up on this app." };
  try {
    const binding = await followBinding(deps.rest, checkable.binding);
    return { kind: "pinned", context: { rest: deps.rest, binding, pin: await captureSessionPin(deps.rest, binding) } };
  } catch (error) {
    return { kind: "unavailable", repository, reason: whyNotPinned(error) };
  }
}

/** A pinning failure in one sentence, saying what the person can do about it where there is something. */
export function whyNotPinned(error: unknown): string {
  if (error instanceof GitHubRequestError) {
    switch (error.kind) {
      case "signed-out":
        return "Nobody is signed in to GitHub on this app.";
      case "unauthorized":
        return "GitHub no longer accepts this app's sign-in; sign in again.";
      case "forbidden":
      case "not-found":
        return "GitHub does not show the repository to this sign-in any more (it may have been removed, or access to it withdrawn).";
      case "rate-limited":
        return error.message;
      default:
        return `GitHub could not be asked for the default branch's commit: ${error.message}`;
    }
  }
  if (error instanceof ChopinError) return error.message;
  return "GitHub's answer about the default branch could not be read.";
}
