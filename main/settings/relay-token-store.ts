/**
 * The relay token at rest. Where the shell offers OS encryption (Electron's safeStorage: Keychain, DPAPI, libsecret)
 * it is kept encrypted, as a saved GitHub sign-in is; elsewhere (host mode) it is text in the owner-only database,
 * which is all a token this process must present unattended can have. Exists because the token, the key to every
 * shared plan of the team, sat in plain text in chopin.db even where the OS could encrypt it (security audit).
 *
 * What must stay true: at most one of the two keys holds a token; a token stored in text before encryption was
 * available is encrypted the next time this store opens with a working cipher; one that cannot be decrypted any more
 * (the OS keyring changed) reads as no token, never as garbage sent to the relay.
 */
import type { Database } from "better-sqlite3";
import type { OsCipher } from "../github/secret-vault.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";

export const RELAY_TOKEN_KEY = "settings.relayToken";
export const ENCRYPTED_RELAY_TOKEN_KEY = "settings.relayTokenEncrypted";

export class RelayTokenStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: OsCipher | null = null,
  ) {
    const plain = getSetting(db, RELAY_TOKEN_KEY);
    if (plain !== null && this.#canEncrypt()) {
      try {
        db.transaction(() => this.set(plain))();
      } catch {
        // The database refuses writes (a full disk): the token stays as it was, readable, and is encrypted at the
        // next start that can write. Encrypting it is worth no failed start.
      }
    }
  }

  get(): string | null {
    const encrypted = getSetting(this.db, ENCRYPTED_RELAY_TOKEN_KEY);
    if (encrypted === null) return getSetting(this.db, RELAY_TOKEN_KEY);
    try {
      return this.cipher ? this.cipher.decryptString(Buffer.from(encrypted, "base64")) : null;
    } catch {
      return null;
    }
  }

  /** Stores `token` (null removes it); safe inside the caller's transaction. */
  set(token: string | null): void {
    if (token === null) {
      deleteSetting(this.db, RELAY_TOKEN_KEY);
      deleteSetting(this.db, ENCRYPTED_RELAY_TOKEN_KEY);
      return;
    }
    const encrypted = this.#encrypt(token);
    if (encrypted !== null) {
      setSetting(this.db, ENCRYPTED_RELAY_TOKEN_KEY, encrypted);
      deleteSetting(this.db, RELAY_TOKEN_KEY);
    } else {
      setSetting(this.db, RELAY_TOKEN_KEY, token);
      deleteSetting(this.db, ENCRYPTED_RELAY_TOKEN_KEY);
    }
  }

  #canEncrypt(): boolean {
    try {
      return this.cipher?.isEncryptionAvailable() === true;
    } catch {
      return false;
    }
  }

  /** Base64 of the OS-encrypted token, or null when the OS cannot encrypt now. */
  #encrypt(token: string): string | null {
    if (!this.#canEncrypt()) return null;
    try {
      return this.cipher!.encryptString(token).toString("base64");
    } catch {
      return null;
    }
  }
}
