/**
 * Where this installation keeps a "stay signed in" GitHub sign-in, chosen per sign-in: the OS-encrypted file when
 * the shell passed an OS cipher that works, otherwise a plaintext 0600 file ONLY when the person ticked the explicit
 * consent after a warning, otherwise nowhere (memory only). What must stay true:
 *  - no plaintext file is written without consent given for this sign-in;
 *  - erasing erases every kind of saved sign-in in the data folder, so sign-out leaves nothing behind;
 *  - a plaintext file found at launch is evidence of an earlier consent (only a consented vault can write it), and
 *    is restored; sign-out deletes it and withdraws that consent.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { ChopinError } from "../../shared/errors.js";
import {
  createOsEncryptedVault,
  createPlaintextFileVault,
  type OsCipher,
  type SecretVault,
  type StoredCredential,
} from "./secret-vault.js";

export const ENCRYPTED_SIGNIN_FILE = "github-signin.enc";
export const PLAINTEXT_SIGNIN_FILE = "github-signin.json";

export class SignInVault implements SecretVault {
  readonly #encryptedPath: string;
  readonly #plaintextPath: string;
  readonly #cipher: OsCipher | null;
  #inner: SecretVault | null = null;

  constructor(options: { dataDir: string; osCipher?: OsCipher | null }) {
    this.#encryptedPath = join(options.dataDir, ENCRYPTED_SIGNIN_FILE);
    this.#plaintextPath = join(options.dataDir, PLAINTEXT_SIGNIN_FILE);
    this.#cipher = options.osCipher ?? null;
  }

  /** Whether the OS can encrypt a saved sign-in right now. */
  get secureStorage(): boolean {
    try {
      return this.#cipher?.isEncryptionAvailable() === true;
    } catch {
      return false;
    }
  }

  get kind(): SecretVault["kind"] {
    return this.#inner?.kind ?? "os-encrypted";
  }

  /** At launch: picks the vault holding a saved sign-in, if any. Returns whether there is one to restore. */
  prepareRestore(): boolean {
    if (this.secureStorage && existsSync(this.#encryptedPath)) {
      this.#inner = createOsEncryptedVault({ path: this.#encryptedPath, cipher: this.#cipher! });
      return true;
    }
    if (existsSync(this.#plaintextPath)) {
      this.#inner = createPlaintextFileVault({ path: this.#plaintextPath, explicitPlaintextConsent: true });
      return true;
    }
    return false;
  }

  /** Before a sign-in: where it will be kept. Refuses to stay signed in unencrypted without consent. */
  choose(staySignedIn: boolean, plaintextConsent: boolean): void {
    if (!staySignedIn) {
      this.#inner = null;
    } else if (this.secureStorage) {
      this.#inner = createOsEncryptedVault({ path: this.#encryptedPath, cipher: this.#cipher! });
    } else if (plaintextConsent === true) {
      this.#inner = createPlaintextFileVault({ path: this.#plaintextPath, explicitPlaintextConsent: true });
    } else {
      throw new ChopinError(
        "forbidden",
        "This system offers no encryption for a saved sign-in. To stay signed in, agree to keeping it in an unencrypted file only your account can read, or sign in for this session only.",
        { reason: "plaintext-consent-required" },
      );
    }
  }

  /** Nothing is kept any more; the next launch starts signed out. */
  forget(): void {
    this.#inner = null;
  }

  async load(): Promise<StoredCredential | null> {
    return this.#inner ? this.#inner.load() : null;
  }

  async save(credential: StoredCredential): Promise<void> {
    if (!this.#inner) throw new ChopinError("forbidden", "Staying signed in was not chosen for this sign-in, so it is not saved.");
    await this.#inner.save(credential);
  }

  async clear(): Promise<void> {
    await Promise.all([rm(this.#encryptedPath, { force: true }), rm(this.#plaintextPath, { force: true })]);
  }
}
