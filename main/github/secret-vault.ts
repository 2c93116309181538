/**
 * Where "stay signed in" keeps the GitHub tokens between launches. Two implementations, both files:
 *  - an OS-encrypted vault over a cipher shaped like Electron's safeStorage (the Electron adapter lives in
 *    main/electron/ and passes safeStorage in); it refuses to save when the OS offers no encryption, never falling
 *    back to plaintext;
 *  - a plaintext 0600 file for host mode, which refuses to exist unless the person explicitly consented after a warning.
 * What must stay true: no code path writes a token in plaintext without `explicitPlaintextConsent: true`.
 */
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ChopinError } from "../../shared/errors.js";

export interface StoredCredential {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  refreshTokenExpiresAt: number | null;
  login: string;
  userId: number;
}

export interface SecretVault {
  readonly kind: "os-encrypted" | "plaintext-file";
  load(): Promise<StoredCredential | null>;
  save(credential: StoredCredential): Promise<void>;
  clear(): Promise<void>;
}

/** The subset of Electron's safeStorage the vault needs. */
export interface OsCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

function parseStored(text: string): StoredCredential | null {
  try {
    const v = JSON.parse(text) as StoredCredential;
    return typeof v?.accessToken === "string" && typeof v.login === "string" ? v : null;
  } catch {
    return null;
  }
}

/**
 * Writes via a new 0600 temp file (O_EXCL: never through a file or symlink already at its name) and rename, so a
 * crash never leaves a half-written or wider-permission file.
 */
async function writePrivate(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await rm(tmp, { force: true });
  await writeFile(tmp, data, { mode: 0o600, flag: "wx" });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

export function createOsEncryptedVault(options: { path: string; cipher: OsCipher }): SecretVault {
  return {
    kind: "os-encrypted",
    async load() {
      const raw = await readIfExists(options.path);
      if (!raw || !options.cipher.isEncryptionAvailable()) return null;
      try {
        return parseStored(options.cipher.decryptString(raw));
      } catch {
        return null; // unreadable (another OS user, a reset keychain): the person signs in again
      }
    },
    async save(credential) {
      if (!options.cipher.isEncryptionAvailable()) {
        throw new ChopinError("storage-failure", "This system offers no encryption for saved sign-ins, so Chopin will not save it.");
      }
      await writePrivate(options.path, options.cipher.encryptString(JSON.stringify(credential)));
    },
    clear: () => rm(options.path, { force: true }),
  };
}

export function createPlaintextFileVault(options: { path: string; explicitPlaintextConsent: boolean }): SecretVault {
  if (options.explicitPlaintextConsent !== true) {
    throw new ChopinError(
      "forbidden",
      "Saving the GitHub sign-in as an unencrypted file needs your explicit consent; without it the sign-in stays in memory only.",
    );
  }
  return {
    kind: "plaintext-file",
    async load() {
      const raw = await readIfExists(options.path);
      if (!raw) return null;
      // A file others can read is not ours any more: refuse it rather than trust it.
      const mode = (await stat(options.path)).mode & 0o777;
      if ((mode & 0o077) !== 0) {
        throw new ChopinError("forbidden", `The saved sign-in file is readable by others (mode ${mode.toString(8)}); sign in again.`);
      }
      return parseStored(raw.toString("utf8"));
    },
    save: (credential) => writePrivate(options.path, JSON.stringify(credential)),
    clear: () => rm(options.path, { force: true }),
  };
}
