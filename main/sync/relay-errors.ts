/**
 * A failed connection to the relay in words a person can act on. The sync indicator shows this text; Node's own
 * ("ECONNREFUSED connect ECONNREFUSED 127.0.0.1:43377") says nothing to someone who is not a network engineer.
 * What must stay true: every error gives one sentence, unknown ones included, and it never holds a token.
 */

/** Sentences for the socket error codes a relay connection meets, by Node error code. */
const BY_CODE: Record<string, string> = {
  ECONNREFUSED: "The relay is not running at its address, or the address is wrong.",
  ECONNRESET: "The connection to the relay was cut.",
  EPIPE: "The connection to the relay was cut.",
  ENOTFOUND: "The relay's address could not be found. Check the address and your network.",
  EAI_AGAIN: "The relay's address could not be looked up. Check your network.",
  ETIMEDOUT: "The relay did not answer in time.",
  EHOSTUNREACH: "Your network cannot reach the relay.",
  ENETUNREACH: "Your network cannot reach the relay. Are you offline?",
  ENETDOWN: "Your network is down.",
  EADDRNOTAVAIL: "The relay's address cannot be used from this computer.",
  CERT_HAS_EXPIRED: "The relay's certificate has expired.",
  DEPTH_ZERO_SELF_SIGNED_CERT: "The relay's certificate is not trusted (self-signed).",
  SELF_SIGNED_CERT_IN_CHAIN: "The relay's certificate is not trusted (self-signed).",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The relay's certificate is not trusted.",
  ERR_TLS_CERT_ALTNAME_INVALID: "The relay's certificate is for another address.",
};

/** The sentence for a failure no code or name explains. */
export const UNEXPLAINED_CONNECT_ERROR = "Cannot reach the relay.";

/** How far down an error's `cause` chain to look (fetch nests one or two deep; a cycle must not loop). */
const MAX_CAUSE_DEPTH = 4;

/**
 * Why the relay cannot be reached, in one plain sentence. Looks through `cause` too: fetch() wraps the socket error
 * ("fetch failed", with the ECONNREFUSED/ENOTFOUND error as its cause), and AbortSignal.timeout() aborts with a
 * TimeoutError that has no code.
 */
export function plainConnectError(error: unknown): string {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < MAX_CAUSE_DEPTH; e = (e as { cause?: unknown }).cause, depth++) {
    const code = "code" in e ? (e as { code: unknown }).code : undefined;
    if (typeof code === "string" && BY_CODE[code]) return BY_CODE[code];
    const name = "name" in e ? (e as { name: unknown }).name : undefined;
    if (name === "TimeoutError") return BY_CODE.ETIMEDOUT;
    if (e instanceof Error && /handshake has timed out/i.test(e.message)) return BY_CODE.ETIMEDOUT;
  }
  return UNEXPLAINED_CONNECT_ERROR;
}

/** How much of a refusal's body is read for its sentence (our relay's JSON answers are far shorter). */
const MAX_REFUSAL_MESSAGE_CHARS = 300;

/**
 * Why the relay answered an HTTP status instead of the connection (429 while its sign-in budget is spent, 503 while
 * GitHub cannot be asked): our relay's JSON `{code, message}` sentence when the body is one, else the status alone;
 * a proxy's HTML error page is never shown as the reason.
 */
export function refusalText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === "string" && typeof parsed.message === "string" && parsed.message.trim()) {
      return parsed.message.trim().slice(0, MAX_REFUSAL_MESSAGE_CHARS);
    }
  } catch {
    // Not our relay's JSON: the status says what there is to say.
  }
  return `The relay answered HTTP ${status}.`;
}
