/**
 * Says a run of refused writes once. Background writers that try again on their own (text snapshots, a teammate's
 * removal, the relay link's cached settings) would otherwise report a full disk at every retry. What must stay true:
 * the first refusal after a working write is reported, as a 'storage-failure' sentence (save-failure.ts); later ones
 * are not, until a write works again.
 */
import type { ChopinError } from "../../shared/errors.js";
import { saveFailure } from "./save-failure.js";

export class FaultRun {
  #failing = false;

  constructor(private readonly onFault: (failure: ChopinError) => void = () => {}) {}

  /** A write was refused: reported when it starts a run. */
  refused(error: unknown): void {
    if (!this.#failing) this.onFault(saveFailure(error));
    this.#failing = true;
  }

  /** A write worked: a run of refusals, if any, is over. */
  worked(): void {
    this.#failing = false;
  }
}
