/**
 * Adapts Electron's safeStorage to the vault's OsCipher, so a "stay signed in" GitHub sign-in is encrypted by the OS
 * keychain (macOS Keychain, Windows DPAPI, libsecret/KWallet on Linux). What must stay true: on Linux, the
 * 'basic_text' backend (no keyring found: a hard-coded password, i.e. plaintext in disguise) and 'unknown' (asked
 * before the app is ready) count as NO encryption, so the vault refuses to save instead of pretending; any error
 * while asking also counts as none.
 */
import type { SafeStorage } from "electron";
import type { OsCipher } from "../github/secret-vault.js";

export type SafeStorageLike = Pick<SafeStorage, "isEncryptionAvailable" | "encryptString" | "decryptString"> &
  Partial<Pick<SafeStorage, "getSelectedStorageBackend">>;

/** Linux backends that do not really encrypt. */
const WEAK_LINUX_BACKENDS = new Set(["basic_text", "unknown"]);

export function createSafeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): OsCipher {
  const available = (): boolean => {
    try {
      if (!safeStorage.isEncryptionAvailable()) return false;
      if (platform === "linux") {
        const backend = safeStorage.getSelectedStorageBackend?.() ?? "unknown";
        if (WEAK_LINUX_BACKENDS.has(backend)) return false;
      }
      return true;
    } catch {
      return false;
    }
  };
  return {
    isEncryptionAvailable: available,
    encryptString(plain) {
      if (!available()) throw new Error("The OS offers no encryption for saved sign-ins.");
      return safeStorage.encryptString(plain);
    },
    decryptString: (encrypted) => safeStorage.decryptString(encrypted),
  };
}
