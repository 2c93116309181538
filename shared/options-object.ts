/**
 * An API method's options argument (createDocument's input, listDocuments' query, updateSettings' patch, startSignIn's
 * options) arrives from outside the core as whatever a caller sent. Reading its fields off anything but an object
 * answers "not said" for each ("text".shared is undefined), so a string, a number, null or a list used to mean "all
 * defaults" and a call made in error (createDocument("just a string")) quietly made an Untitled plan. What must stay
 * true: only a plain object (or, where the method allows it, nothing at all) is read as options; anything else is
 * refused with 'invalid-input' and a sentence naming what was sent.
 */
import { ChopinError } from "./errors.js";

/** What a value is, in words a person reads ("text", "a list"). */
function kindOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "text";
    case "boolean":
      return "true or false";
    case "number":
    case "bigint":
      return "a number";
    case "object":
      return "an object";
    case "undefined":
      return "nothing";
    default:
      return `a ${typeof value}`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuse(value: unknown, what: string, optional: boolean): never {
  const sent = value === undefined ? "none was sent" : `not ${kindOfValue(value)}`;
  throw new ChopinError("invalid-input", `${what} must be sent as an object${optional ? " (or left out)" : ""}, ${sent}.`);
}

/** `value` when it is a plain object; else refuses. `what` names the options in a sentence ("Settings"). */
export function requireOptionsObject<T extends object>(value: unknown, what: string): T {
  if (isPlainObject(value)) return value as T;
  return refuse(value, what, false);
}

/** `value` when it is a plain object, undefined when it was left out; else refuses ("A new document's details"). */
export function optionalOptionsObject<T extends object>(value: unknown, what: string): T | undefined {
  if (value === undefined || isPlainObject(value)) return value as T | undefined;
  return refuse(value, what, true);
}
