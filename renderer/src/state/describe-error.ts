/**
 * Turns anything thrown by an API call into a sentence for a person. A ChopinError already carries one; anything
 * else is a bug in this window and says so without pretending to know more.
 */
import { ChopinError } from "../../../shared/errors.js";

export function describeError(error: unknown): string {
  if (error instanceof ChopinError) return error.message;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string" && "code" in error) {
    return (error as unknown as { message: string }).message;
  }
  return "Something went wrong in this window. Nothing was changed.";
}
