/**
 * When a supplied access token expires, as GitHub says it: API answers made with a personal access token that has an
 * expiry carry `GitHub-Authentication-Token-Expiration: 2021-10-07 19:07:53 UTC` (or a numeric offset, `+0200`).
 * What must stay true: anything this does not read exactly is "unknown" (null), never a guess, so a header GitHub
 * changes the shape of cannot end a sign-in early.
 */

export const TOKEN_EXPIRATION_HEADER = "github-authentication-token-expiration";

const STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) (UTC|[+-]\d{4})$/;

/** Epoch ms of the expiry the header names, or null when absent or not in the shape above. */
export function tokenExpiryFromHeader(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = STAMP.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, zone] = m;
  const offsetMinutes = zone === "UTC" ? 0 : (zone![0] === "-" ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(3, 5)));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date.UTC rolls 2021-02-30 over into March: a stamp that does not round-trip is not a real time.
  const back = new Date(utc);
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return utc - offsetMinutes * 60_000;
}
