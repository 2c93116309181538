/**
 * The MCP bearer token: random, generated once per installation and kept in the settings table, so agents that
 * were configured once keep working across restarts. Comparison is constant-time over equal-length digests, so
 * neither content nor length leaks through timing.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database } from "better-sqlite3";
import { MCP_TOKEN_BYTES } from "../util/limits.js";
import { getOrCreateSetting } from "../store/settings.js";

export const MCP_TOKEN_SETTING = "mcp.token";

export function loadOrCreateMcpToken(db: Database): string {
  return getOrCreateSetting(db, MCP_TOKEN_SETTING, () => randomBytes(MCP_TOKEN_BYTES).toString("base64url"));
}

export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}

/** The token from an `Authorization: Bearer <token>` header, or null. */
export function bearerTokenOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
