/**
 * Command lines read with Node's own `util.parseArgs` (the relay's, host mode's, the desktop app's), with its refusals
 * said as our sentences: an unknown option names itself and what is offered, a missing or empty value names the
 * option, an unexpected word names itself. Every refusal is a ChopinError 'invalid-input', never parseArgs' TypeError.
 */
import { parseArgs } from "node:util";
import { ChopinError } from "../errors.js";

export type OptionKinds = Record<string, { type: "string" | "boolean"; short?: string }>;

export interface ReadOptions {
  /** Refuse options not in the list (default true). The desktop app passes false: Chromium and the OS add their own. */
  strict?: boolean;
  /** Accept words that are not options (a subcommand). Default false. */
  positionals?: boolean;
  /** What the "Unknown option" sentence offers instead, e.g. "Options: --port P --host H". */
  offered?: string;
}

export interface ReadResult {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** The quoted option (its long name: "-q, --quiet" is --quiet) or word in a parseArgs message, or the whole message. */
function quoted(message: string): string {
  const inQuotes = /'([^']+)'/.exec(message)?.[1]?.replace(/ <value>$/, "");
  if (inQuotes === undefined) return message;
  return /--[\w-]+/.exec(inQuotes)?.[0] ?? inQuotes;
}

/**
 * `--name value` as `--name=value` for every option that takes a value, whatever the value begins with: parseArgs
 * refuses a value starting with "-" as ambiguous, and a relay token is random base64url, so one in 32 begins with
 * "-" (seen as "--relay-token needs a value" for a valid token). Only the exact name of another option is not taken
 * as a value, so a forgotten value still reads as one.
 */
function valuesJoined(argv: readonly string[], options: OptionKinds): string[] {
  const names = new Set(Object.entries(options).flatMap(([name, kind]) => [`--${name}`, ...(kind.short ? [`-${kind.short}`] : [])]));
  /** The long name of a value-taking option `arg` names alone (`--port`, or its short `-p`), else undefined. */
  const valueOption = (arg: string): string | undefined => {
    const long = /^--([^=]+)$/.exec(arg)?.[1];
    if (long !== undefined) return options[long]?.type === "string" ? long : undefined;
    const short = /^-([^-])$/.exec(arg)?.[1];
    return Object.entries(options).find(([, kind]) => short !== undefined && kind.short === short && kind.type === "string")?.[0];
  };
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const name = valueOption(arg);
    if (name !== undefined && next !== undefined && next.startsWith("-") && !names.has(next) && next !== "--") {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function readOptions(argv: readonly string[], options: OptionKinds, how: ReadOptions = {}): ReadResult {
  const strict = how.strict ?? true;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: valuesJoined(argv, options), options, strict, allowPositionals: how.positionals ?? !strict });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const what = quoted((error as Error).message);
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      throw new ChopinError("invalid-input", `Unknown option “${what}”.${how.offered ? ` ${how.offered}` : ""}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const kind = options[what.replace(/^--?/, "")]?.type;
      throw new ChopinError("invalid-input", kind === "boolean" ? `${what} takes no value.` : `${what} needs a value.`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") throw new ChopinError("invalid-input", `Unexpected argument “${what}”.`);
    throw new ChopinError("invalid-input", (error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (strict) {
    for (const [name, value] of Object.entries(values)) {
      if (value === "") throw new ChopinError("invalid-input", `--${name} needs a value.`);
    }
  }
  return { values, positionals: parsed.positionals };
}
