/**
 * The relay token at rest, kept like every secret setting (secret-setting.ts: OS-encrypted where the shell can).
 * Exists because the token, the key to every shared plan of the team, sat in plain text in chopin.db even where the
 * OS could encrypt it (security audit).
 */
import type { Database } from "better-sqlite3";
import type { OsCipher } from "../github/secret-vault.js";
import { SecretSetting } from "./secret-setting.js";

export const RELAY_TOKEN_KEY = "settings.relayToken";
export const ENCRYPTED_RELAY_TOKEN_KEY = "settings.relayTokenEncrypted";

export class RelayTokenStore extends SecretSetting {
  constructor(db: Database, cipher: OsCipher | null = null) {
    super(db, { plain: RELAY_TOKEN_KEY, encrypted: ENCRYPTED_RELAY_TOKEN_KEY }, cipher);
  }
}
