/**
 * The documents a Planner session may read with read_reference (issue #26): those referenced by the messages given
 * to this session, the latest PLANNER_SESSION_MAX_REFERENCES of them. A reference a later message repeats is kept
 * with the revision that message saw. A new session (after `/new`, a reset, a credential refresh) starts with none
 * but those of the messages its bootstrap gives it.
 */
import type { MessageReference } from "../../shared/schema/conversation.js";
import { PLANNER_SESSION_MAX_REFERENCES } from "../util/limits.js";

export class RetainedReferences {
  /** By document id, oldest retained first (a Map keeps insertion order). */
  readonly #kept = new Map<string, MessageReference>();

  constructor(private readonly max = PLANNER_SESSION_MAX_REFERENCES) {}

  retain(reference: MessageReference): void {
    this.#kept.delete(reference.documentId);
    this.#kept.set(reference.documentId, reference);
    while (this.#kept.size > this.max) this.#kept.delete(this.#kept.keys().next().value!);
  }

  get(documentId: string): MessageReference | undefined {
    return this.#kept.get(documentId);
  }

  list(): MessageReference[] {
    return [...this.#kept.values()];
  }
}
