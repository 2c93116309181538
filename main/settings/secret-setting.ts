/**
 * A secret setting at rest (the relay token, the Planner provider's key). Where the shell offers OS encryption
 * (Electron's safeStorage: Keychain, DPAPI, libsecret) it is kept encrypted, as a saved GitHub sign-in is; elsewhere
 * (host mode) it is text in the owner-only database, which is all a secret this process must present unattended can
 * have.
 *
 * What must stay true: at most one of the two keys holds the secret; one stored in text before encryption was
 * available is encrypted the next time this store opens with a working cipher; one that cannot be decrypted any more
 * (the OS keyring changed) reads as none, never as garbage sent on.
 */
import type { Database } from "better-sqlite3";
import type { OsCipher } from "../github/secret-vault.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";

export interface SecretKeys {
  /** Where the secret sits as text when the OS cannot encrypt. */
  plain: string;
  /** Where it sits as base64 of the OS-encrypted text. */
  encrypted: string;
}

export class SecretSetting {
  constructor(
    private readonly db: Database,
    private readonly keys: SecretKeys,
    private readonly cipher: OsCipher | null = null,
  ) {
    const plain = getSetting(db, keys.plain);
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
    const encrypted = getSetting(this.db, this.keys.encrypted);
    if (encrypted === null) return getSetting(this.db, this.keys.plain);
    try {
      return this.cipher ? this.cipher.decryptString(Buffer.from(encrypted, "base64")) : null;
    } catch {
      return null;
    }
  }

  /** Stores `secret` (null removes it); safe inside the caller's transaction. */
  set(secret: string | null): void {
    if (secret === null) {
      deleteSetting(this.db, this.keys.plain);
      deleteSetting(this.db, this.keys.encrypted);
      return;
    }
    const encrypted = this.#encrypt(secret);
    if (encrypted !== null) {
      setSetting(this.db, this.keys.encrypted, encrypted);
      deleteSetting(this.db, this.keys.plain);
    } else {
      setSetting(this.db, this.keys.plain, secret);
      deleteSetting(this.db, this.keys.encrypted);
    }
  }

  #canEncrypt(): boolean {
    try {
      return this.cipher?.isEncryptionAvailable() === true;
    } catch {
      return false;
    }
  }

  /** Base64 of the OS-encrypted secret, or null when the OS cannot encrypt now. */
  #encrypt(secret: string): string | null {
    if (!this.#canEncrypt()) return null;
    try {
      return this.cipher!.encryptString(secret).toString("base64");
    } catch {
      return null;
    }
  }
}
