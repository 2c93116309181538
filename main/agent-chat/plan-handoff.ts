/**
 * A plan handoff from an agent chat (issue #27): a new plan made with a title, a brief and the chat plan's drafted
 * Markdown, by the agent's tool (main/planner/handoff-tool.ts) or by the person's action (AgentChatService.handOff).
 *
 * Idempotency is a row in this device's database (main/store/plan-handoffs.ts), keyed uniquely by (chat plan, handoff
 * key), that names the new plan's id before the plan is made; the plan is then made at that id
 * (main/documents/handoff-plan.ts). Chosen over a derived id with a shared genesis because the plan's content is the
 * chat plan as it is at the handoff: two attempts could begin different bytes at one derived id, and their root
 * changes would then conflict. Only the chat's person's apps hand off (the turn runs where the lease is, the action
 * in that person's window), so one device's constraint is the one that counts.
 *
 * What must stay true: the same key gives the same plan (the constraint, not a read, decides), also across a restart
 * between the reservation and the plan reaching disk; the plan is stored and listed before this answers, so a card
 * written after names a plan that exists; a refusal (bad input, a full disk, a plan too large) answers a typed error
 * and leaves no listed plan; a handoff already made whose plan was deleted since is refused, never made again.
 */
import { createHash } from "node:crypto";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { handoffInputSchema, handoffMarkdown } from "../../shared/plan-handoff.js";
import type { AgentAuthor } from "../documents/change-messages.js";
import type { HandoffPlanStart } from "../documents/handoff-plan.js";

export interface PlanHandoffDeps {
  records: {
    /** The plan id the key names: `documentId` when it names none yet (the table's PRIMARY KEY decides). */
    reserve(reservation: { chatPlanId: string; key: string; documentId: string; at: number }): { documentId: string; committedAt: number | null };
    commit(chatPlanId: string, key: string, at: number): void;
  };
  plans: {
    /** The chat plan's Markdown as this replica holds it now. */
    markdown(chatPlanId: DocumentId): Promise<string>;
    isShared(documentId: string): boolean;
    openOrCreateHandoffPlan(start: HandoffPlanStart): Promise<DocumentDetail>;
  };
  now(): number;
}

export interface HandoffRequest {
  chatPlanId: DocumentId;
  /** toolHandoffKey or personHandoffKey. */
  key: string;
  title: string;
  brief: string;
  /** The agent handing off (its change credited to it); absent: the person. */
  by?: AgentAuthor;
}

export interface HandedOff {
  documentId: DocumentId;
  title: string;
}

/** The agent's handoff in turn `turnId`: the same call (same turn, same arguments), retried, is the same handoff. */
export function toolHandoffKey(turnId: string, input: { title: string; brief: string }): string {
  return `turn:${turnId}:${createHash("sha256").update(JSON.stringify([input.title, input.brief])).digest("hex")}`;
}

/** The person's handoff, by the clientRequestId their window gave it. */
export function personHandoffKey(person: string, clientRequestId: string): string {
  return `request:${person}\n${clientRequestId}`;
}

/** Every input refusal as one sentence naming the field. */
export function checkHandoffInput(input: unknown): { title: string; brief: string } {
  const parsed = handoffInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ChopinError("invalid-input", issue?.message.match(/^(title|brief):/) ? issue.message : `The handoff's ${issue?.path.join(".") || "input"} is not valid: ${issue?.message ?? "unknown"}.`);
}

export class PlanHandoff {
  readonly #deps: PlanHandoffDeps;

  constructor(deps: PlanHandoffDeps) {
    this.#deps = deps;
  }

  async create(request: HandoffRequest): Promise<HandedOff> {
    const { title, brief } = checkHandoffInput({ title: request.title, brief: request.brief });
    const { records, plans } = this.#deps;
    const row = this.#record(() => records.reserve({ chatPlanId: request.chatPlanId, key: request.key, documentId: parseAutomergeUrl(generateAutomergeUrl()).documentId, at: this.#deps.now() }));
    const mayCreate = row.committedAt === null;
    const markdown = mayCreate ? handoffMarkdown(brief, await plans.markdown(request.chatPlanId)) : "";
    const detail = await plans.openOrCreateHandoffPlan({
      documentId: row.documentId as DocumentId,
      title,
      markdown,
      shared: plans.isShared(request.chatPlanId),
      mayCreate,
      ...(request.by ? { by: request.by } : {}),
    });
    this.#record(() => records.commit(request.chatPlanId, request.key, this.#deps.now()));
    return { documentId: detail.id as DocumentId, title: detail.title };
  }

  /** A write of the handoff's row; a database that refuses it (full, read-only) is 'storage-failure' in a sentence. */
  #record<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (error instanceof ChopinError) throw error;
      const cause = error instanceof Error ? error.message : String(error);
      throw new ChopinError("storage-failure", `This device's database could not record the handoff (${cause}), so no card was written; try again once it takes writes.`, { cause });
    }
  }
}
