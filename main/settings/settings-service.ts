/**
 * Settings a person changes in the UI: display name, relay URL and relay token. The token is write-only across the
 * API (the renderer learns only whether one is set). Validation happens here so a bad value is refused with a
 * sentence and the stored settings stay as they were.
 * What must stay true: the relay token belongs to the relay address it was given for (settings.relayTokenUrl): a
 * change of the address forgets it, unless the same change brings a new one, so a stored token is never presented to
 * another relay.
 */
import { nameOfRelayHandle } from "../../shared/relay-user-name.js";
import { userInfo } from "node:os";
import type { Database } from "better-sqlite3";
import type { Settings, SettingsPatch } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import { MAX_RELAY_TOKEN_CHARS, MAX_RELAY_URL_CHARS } from "../util/limits.js";
import { deleteSetting, getSetting, setSetting } from "../store/settings.js";
import type { OsCipher } from "../github/secret-vault.js";
import { RelayTokenStore } from "./relay-token-store.js";
import { writeWhole } from "../util/save-failure.js";

const KEYS = {
  displayName: "settings.displayName",
  relayUrl: "settings.relayUrl",
  /** Who the relay says this device signs in as (GET /v1/team), the default name when none was chosen. */
  teamHandle: "relay.teamHandle",
  /** The relay address the stored relay token was given for (local schema 7). */
  relayTokenUrl: "settings.relayTokenUrl",
} as const;


function osUserName(): string {
  try {
    return userInfo().username || "Me";
  } catch {
    return "Me";
  }
}

/**
 * Teammates see this name beside the caret and in "Also here": control and format characters (zero-width spaces,
 * right-to-left overrides that reorder what follows) could make it invisible or misleading, so they are refused. Code
 * points this runtime's Unicode does not know yet pass (an emoji newer than Node's tables is still a name).
 */
export function normalizeDisplayName(raw: unknown): string {
  if (typeof raw !== "string") throw new ChopinError("invalid-input", "A display name must be text.");
  const name = raw.trim().replace(/\s+/g, " ");
  if (name.length === 0) throw new ChopinError("invalid-input", "A display name cannot be empty or only spaces.");
  if (/[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u.test(name)) {
    throw new ChopinError("invalid-input", "A display name cannot hold invisible or control characters (such as zero-width spaces or direction marks).");
  }
  if ([...name].length > MAX_DISPLAY_NAME_CHARS) {
    throw new ChopinError("invalid-input", `A display name can be at most ${MAX_DISPLAY_NAME_CHARS} characters.`);
  }
  return name;
}

export function normalizeRelayUrl(raw: unknown): string | null {
  if (raw === null || raw === "") return null;
  if (typeof raw !== "string") throw new ChopinError("invalid-input", "A relay address must be text.");
  if (raw.trim().length > MAX_RELAY_URL_CHARS) {
    throw new ChopinError("invalid-input", `A relay address can be at most ${MAX_RELAY_URL_CHARS} characters.`, { limit: MAX_RELAY_URL_CHARS });
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ChopinError("invalid-input", `“${raw.slice(0, 80)}” is not an address. A relay address looks like wss://relay.example.com.`);
  }
  if (url.protocol === "https:" || url.protocol === "http:") {
    const suggestion = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
    throw new ChopinError("invalid-input", `A relay address starts with ws:// or wss://; for this relay that is probably ${suggestion}.`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new ChopinError("invalid-input", "A relay address starts with ws:// or wss://.");
  }
  // The relay token is the credential (and kept hidden); a user name or password in the address would be shown and
  // stored in the clear.
  if (url.username || url.password) {
    throw new ChopinError("invalid-input", "A relay address cannot hold a user name or password; the relay token goes in its own field.");
  }
  return url.toString().replace(/\/$/, "");
}

export function normalizeRelayToken(raw: unknown): string | null {
  if (raw === null || raw === "") return null;
  if (typeof raw !== "string" || !/^[\x21-\x7e]+$/.test(raw.trim())) {
    throw new ChopinError("invalid-input", "A relay token is a single word of printable characters, as the relay printed it.");
  }
  if (raw.trim().length > MAX_RELAY_TOKEN_CHARS) throw new ChopinError("invalid-input", `A relay token can be at most ${MAX_RELAY_TOKEN_CHARS} characters.`);
  return raw.trim();
}

export class SettingsService {
  readonly #relayToken: RelayTokenStore;

  /** `osCipher`: the shell's OS encryption, for the relay token at rest (relay-token-store.ts). */
  constructor(
    private readonly db: Database,
    osCipher: OsCipher | null = null,
  ) {
    this.#relayToken = new RelayTokenStore(db, osCipher);
  }

  get(): Settings {
    return {
      // A name chosen in Settings; else the relay's name for this person (teammates told apart by it, where OS user
      // names are often alike); else the OS user name.
      displayName: getSetting(this.db, KEYS.displayName) ?? this.#teamName() ?? osUserName(),
      relayUrl: getSetting(this.db, KEYS.relayUrl),
      relayTokenSet: this.relayToken() !== null,
    };
  }

  /** Records who the relay says this device is; true when that changed (the default display name may have). */
  noteTeamHandle(handle: string): boolean {
    if (getSetting(this.db, KEYS.teamHandle) === handle) return false;
    setSetting(this.db, KEYS.teamHandle, handle);
    return true;
  }

  #teamName(): string | null {
    const handle = getSetting(this.db, KEYS.teamHandle);
    return handle ? nameOfRelayHandle(handle).slice(0, MAX_DISPLAY_NAME_CHARS) : null;
  }

  /** The relay token, only for the relay address it was given for (a token of another address is never presented). */
  relayToken(): string | null {
    const url = getSetting(this.db, KEYS.relayUrl);
    if (url === null || getSetting(this.db, KEYS.relayTokenUrl) !== url) return null;
    return this.#relayToken.get();
  }

  /**
   * Validates the whole patch before writing any of it, so a refused patch changes nothing; one transaction, so a
   * database that refuses the write (a full disk) changes nothing either, and says so as a 'storage-failure'.
   */
  update(input: SettingsPatch): Settings {
    // Its shape was checked at the API's boundary (shared/api-arguments.ts); each value is judged here.
    const patch = input;
    const writes: Array<[string, string | null]> = [];
    if (patch.displayName !== undefined) writes.push([KEYS.displayName, normalizeDisplayName(patch.displayName)]);
    const currentUrl = getSetting(this.db, KEYS.relayUrl);
    const relayUrl = patch.relayUrl === undefined ? currentUrl : normalizeRelayUrl(patch.relayUrl);
    if (patch.relayUrl !== undefined) writes.push([KEYS.relayUrl, relayUrl]);
    let relayToken = patch.relayToken === undefined ? undefined : normalizeRelayToken(patch.relayToken);
    // A new address without a new token: the old token was given for the old address and must not go to this one.
    if (relayToken === undefined && relayUrl !== currentUrl) relayToken = null;
    if (relayToken && relayUrl === null) {
      throw new ChopinError("invalid-input", "A relay token belongs to a relay address: set the relay address too.");
    }
    if (relayToken !== undefined) writes.push([KEYS.relayTokenUrl, relayToken === null ? null : relayUrl]);
    writeWhole(() =>
      this.db.transaction(() => {
        for (const [key, value] of writes) value === null ? deleteSetting(this.db, key) : setSetting(this.db, key, value);
        if (relayToken !== undefined) this.#relayToken.set(relayToken);
      })(),
    );
    return this.get();
  }
}
