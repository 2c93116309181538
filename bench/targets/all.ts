/** Every relay target, in report order; a client thread finds its target here by name. */
import { yjsBaseline } from "./yjs-baseline.js";
import { automergeBaseline } from "./automerge-baseline.js";
import { chopinRelay, chopinRelaySyncOnly } from "./chopin-relay.js";
import type { RelayTarget } from "./relay-target.js";

export const RELAY_TARGETS: readonly RelayTarget[] = [yjsBaseline, automergeBaseline, chopinRelaySyncOnly, chopinRelay];

export function relayTargetNamed(name: string): RelayTarget {
  const target = RELAY_TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`no relay target named ${JSON.stringify(name)}`);
  return target;
}
