import { describe, expect, it } from "vitest";
import { plainConnectError, refusalText } from "./relay-errors.js";

const socketError = (code: string, message = `${code} connect ${code} 127.0.0.1:43377`) => Object.assign(new Error(message), { code });

describe("plainConnectError", () => {
  it("names a refused connection without the raw code or address", () => {
    const text = plainConnectError(socketError("ECONNREFUSED"));
    expect(text).toBe("The relay is not running at its address, or the address is wrong.");
    expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });

  it("tells a missing host, a cut connection and a timeout apart", () => {
    expect(plainConnectError(socketError("ENOTFOUND"))).toMatch(/could not be found/);
    expect(plainConnectError(socketError("ECONNRESET"))).toMatch(/was cut/);
    expect(plainConnectError(socketError("ETIMEDOUT"))).toMatch(/did not answer in time/);
    expect(plainConnectError(new Error("Opening handshake has timed out"))).toMatch(/did not answer in time/);
  });

  it("gives one plain sentence for anything else, never the raw message", () => {
    expect(plainConnectError(socketError("EWEIRD", "EWEIRD secret-ish detail"))).toBe("Cannot reach the relay.");
    expect(plainConnectError("boom")).toBe("Cannot reach the relay.");
    expect(plainConnectError(undefined)).toBe("Cannot reach the relay.");
  });

  it("looks through fetch's wrapping: the socket error is the cause of \"fetch failed\"", () => {
    const fetchFailed = Object.assign(new TypeError("fetch failed"), { cause: socketError("ENOTFOUND") });
    expect(plainConnectError(fetchFailed)).toMatch(/could not be found/);
    const timedOut = Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" });
    expect(plainConnectError(timedOut)).toMatch(/did not answer in time/);
  });

  it("stops on a cause chain that loops, with the plain fallback", () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(plainConnectError(a)).toBe("Cannot reach the relay.");
  });
});

describe("refusalText", () => {
  it("gives our relay's own sentence for a refusal it explains (429, 503)", () => {
    const body = JSON.stringify({ code: "rate-limited", message: "Too many refused sign-ins from this address; try again in 42 s." });
    expect(refusalText(429, body)).toBe("Too many refused sign-ins from this address; try again in 42 s.");
  });

  it("says only the status for anything else: a proxy's page is never shown as the reason", () => {
    expect(refusalText(502, "<html><body><h1>502 Bad Gateway</h1></body></html>")).toBe("The relay answered HTTP 502.");
    expect(refusalText(500, JSON.stringify({ message: "no code, so not ours" }))).toBe("The relay answered HTTP 500.");
    expect(refusalText(503, "")).toBe("The relay answered HTTP 503.");
  });
});
