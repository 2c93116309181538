/**
 * Checks every host-mode request against DNS rebinding and cross-site use: the Host header must name our loopback
 * port, a WebSocket's Origin must be our own origin, and sockets must present the per-launch secret. A web page on
 * another origin, or a rebinding domain that resolves to 127.0.0.1, fails one of these.
 */
import { timingSafeEqual } from "node:crypto";

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  return typeof hostHeader === "string" && allowedHosts(port).has(hostHeader.toLowerCase());
}

/** A browser always sends Origin on a WebSocket; it must be this server's own origin. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (typeof origin !== "string") return false;
  return [...allowedHosts(port)].some((host) => origin.toLowerCase() === `http://${host}`);
}

/** Constant-time comparison; different lengths compare unequal without leaking where they differ. */
export function secretMatches(presented: string | null | undefined, secret: string): boolean {
  if (typeof presented !== "string") return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
