import { describe, expect, it } from "vitest";
import { deleteWords } from "./DocumentListItem.js";

describe("the delete confirmation's words", () => {
  it("says what deleting a shared document does not do: teammates and the relay keep their copies", () => {
    expect(deleteWords("Plan", true)).toMatch(/removed from the team's list\. Teammates who already have it keep their copies, as does the team relay/);
    expect(deleteWords("Plan", true)).not.toMatch(/deleted from this device and the team relay/);
  });

  it("keeps it short for a private document", () => {
    expect(deleteWords("Plan", false)).toBe("“Plan” and its history will be deleted from this device. This cannot be undone.");
  });
});
