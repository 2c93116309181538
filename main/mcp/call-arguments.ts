/**
 * tools/call arguments that are not an object (null, a list, a string...). The SDK's Server validates every
 * tools/call against its own schema before our handler runs and answers such a call with a protocol error and a
 * schema dump; an agent should get the same structured 'invalid-input' tool error as for any other bad input. So the
 * HTTP layer wraps such a value in an object under NON_OBJECT_ARGUMENTS before the SDK sees it, and callTool refuses it.
 */
export const NON_OBJECT_ARGUMENTS = "chopin/arguments-not-an-object";

function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Rewrites, in place, every tools/call in a JSON-RPC body (one message or a batch) whose arguments are not an object. */
export function wrapNonObjectArguments(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isPlainObject(message) || (message as { method?: unknown }).method !== "tools/call") continue;
    const params = (message as { params?: unknown }).params;
    if (!isPlainObject(params) || !("arguments" in (params as object))) continue;
    const args = (params as { arguments?: unknown }).arguments;
    if (args === undefined || isPlainObject(args)) continue;
    (params as { arguments: unknown }).arguments = { [NON_OBJECT_ARGUMENTS]: kindOf(args) };
  }
}

/** Words for what a non-object value is; the only values the wrapper ever holds. */
const KINDS: Readonly<Record<string, string>> = {
  null: "null",
  list: "a list",
  string: "a string",
  number: "a number",
  boolean: "true or false",
};

function kindOf(value: unknown): string {
  const kind = value === null ? "null" : Array.isArray(value) ? "list" : typeof value;
  return KINDS[kind] ?? "not an object";
}

/**
 * What the wrapped arguments were, or null when they were an object (or absent). Only our own wrapper counts: an
 * agent sending the key itself is sending an unknown field, which the tool's schema refuses without echoing its value.
 */
export function nonObjectArguments(args: unknown): string | null {
  if (!isPlainObject(args)) return null;
  const keys = Object.keys(args as object);
  const value = (args as Record<string, unknown>)[NON_OBJECT_ARGUMENTS];
  if (keys.length !== 1 || keys[0] !== NON_OBJECT_ARGUMENTS || typeof value !== "string") return null;
  return Object.values(KINDS).includes(value) ? value : null;
}
