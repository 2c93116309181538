/**
 * An API method's options argument (createDocument's input, listDocuments' query, updateSettings' patch, startSignIn's
 * options) arrives from outside the core as whatever a caller sent. Reading its fields off anything but an object
 * answers "not said" for each ("text".shared is undefined), so a string, a number, null or a list used to mean "all
 * defaults" and a call made in error (createDocument("just a string")) quietly made an Untitled plan. What must stay
 * true: only a plain object (or, where the method allows it, nothing at all) is read as options; anything else is
 * refused (api-arguments.ts) with 'invalid-input' and this sentence naming what was sent.
 */

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

/**
 * The sentence refusing `value` as the options `what` names ("Settings must be sent as an object, not a list."); the
 * API's argument schemas (api-arguments.ts) say it for every options argument.
 */
export function optionsRefusal(value: unknown, what: string, optional: boolean): string {
  const sent = value === undefined ? "none was sent" : `not ${kindOfValue(value)}`;
  return `${what} must be sent as an object${optional ? " (or left out)" : ""}, ${sent}.`;
}
