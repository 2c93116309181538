/**
 * The Planner-ownership frames of the relay wire (issue #25), used only when both the join and the peer frame list
 * FEATURE_PLANNER_LEASE. A client asks (claim, renew, release, reset, watch, and the release of an earlier run's
 * leases at startup) and the relay answers each request by its id; the relay also pushes a channel's lease to every
 * connection watching it whenever it changes, expiry included.
 *
 * What must stay true: the relay never sends a time of its own clock, only how long a lease has left (`expiresInMs`),
 * so a client's clock, however skewed, never decides who owns; the holder's user and device are the connection's own
 * (authenticated), never taken from a frame; frames that do not pass these schemas close the socket as malformed.
 */
import { z } from "zod";
import { MAX_FENCED_WRITE_BYTES, MAX_FENCED_WRITE_CHANGES, MAX_PEER_ID_CHARS, MAX_WIRE_DOCUMENT_ID_CHARS } from "./limits.js";

/** Feature name in join/peer frames: the side understands lease frames. */
export const FEATURE_PLANNER_LEASE = "planner-lease";
export const LEASE_REQUEST_TYPE = "lease";
export const LEASE_STATE_TYPE = "lease-state";

const requestId = z.string().min(1).max(64);
const channelId = z.string().min(1).max(MAX_WIRE_DOCUMENT_ID_CHARS);
/** One run of the app: leases of an earlier run are released when a new run joins. */
const session = z.string().min(1).max(64);

export const leaseRequestSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("claim"), channelId }),
  z.object({ op: z.literal("renew"), channelId, generation: z.number().int().min(1) }),
  z.object({ op: z.literal("release"), channelId, generation: z.number().int().min(1) }),
  z.object({ op: z.literal("reset"), channelId }),
  z.object({ op: z.literal("watch"), channelId }),
  z.object({ op: z.literal("release-earlier-runs") }),
  /**
   * The Planner's change to the channel's plan or conversation, prepared by its owner on a fork of the document under
   * `generation`: stored and relayed only if that is the channel's live generation and this app holds it.
   */
  z.object({
    op: z.literal("fenced-write"),
    channelId,
    documentId: channelId,
    generation: z.number().int().min(1),
    changes: z
      .array(z.custom<Uint8Array>((value) => value instanceof Uint8Array, "a change is bytes"))
      .min(1)
      .max(MAX_FENCED_WRITE_CHANGES)
      .refine((changes) => changes.reduce((sum, change) => sum + change.byteLength, 0) <= MAX_FENCED_WRITE_BYTES, `a fenced write carries at most ${MAX_FENCED_WRITE_BYTES} bytes`),
  }),
]);
export type LeaseRequest = z.infer<typeof leaseRequestSchema>;

export const leaseRequestFrameSchema = z.object({
  type: z.literal(LEASE_REQUEST_TYPE),
  senderId: z.string().min(1).max(MAX_PEER_ID_CHARS),
  targetId: z.string().min(1).max(MAX_PEER_ID_CHARS),
  requestId,
  session,
  request: leaseRequestSchema,
});
export type LeaseRequestFrame = z.infer<typeof leaseRequestFrameSchema>;

export const wireLeaseSchema = z.object({
  channelId,
  generation: z.number().int().min(0),
  owner: z.object({ user: z.string().max(MAX_PEER_ID_CHARS), device: z.string().max(MAX_PEER_ID_CHARS) }).nullable(),
  /** How long the lease has left by the relay's clock when it sent this; null without an owner. */
  expiresInMs: z.number().int().min(0).nullable(),
});
export type WireLease = z.infer<typeof wireLeaseSchema>;

/**
 * Why a fenced write was refused: an older (or no longer live) generation; changes that depend on what the keeper
 * does not hold yet (the writer syncs, then prepares again); a document that is not the channel's plan or conversation,
 * or changes that do not apply.
 */
export const FENCED_WRITE_REFUSALS = ["stale-generation", "missing-dependencies", "not-this-channel", "malformed"] as const;
export type FencedWriteRefusal = (typeof FENCED_WRITE_REFUSALS)[number];

export const leaseStateFrameSchema = z.object({
  type: z.literal(LEASE_STATE_TYPE),
  senderId: z.string().min(1).max(MAX_PEER_ID_CHARS),
  targetId: z.string().min(1).max(MAX_PEER_ID_CHARS),
  /** The request this answers; absent on a push. */
  requestId: requestId.optional(),
  /** For an answer: whether the request was granted. */
  ok: z.boolean().optional(),
  /** For a refused request: why, in a sentence. */
  reason: z.string().max(500).optional(),
  lease: wireLeaseSchema.optional(),
  /** For a refused fenced write: why, for the writer to act on. */
  refusal: z.enum(FENCED_WRITE_REFUSALS).optional(),
  /** For release-earlier-runs: the channels released. */
  released: z.array(channelId).max(10_000).optional(),
});
export type LeaseStateFrame = z.infer<typeof leaseStateFrameSchema>;
