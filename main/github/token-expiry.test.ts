import { describe, expect, it } from "vitest";
import { tokenExpiryFromHeader } from "./token-expiry.js";

describe("tokenExpiryFromHeader", () => {
  it("reads GitHub's UTC stamp and numeric offsets", () => {
    expect(tokenExpiryFromHeader("2021-10-07 19:07:53 UTC")).toBe(Date.UTC(2021, 9, 7, 19, 7, 53));
    expect(tokenExpiryFromHeader("2021-10-07 21:07:53 +0200")).toBe(Date.UTC(2021, 9, 7, 19, 7, 53));
    expect(tokenExpiryFromHeader("2021-10-07 14:07:53 -0500")).toBe(Date.UTC(2021, 9, 7, 19, 7, 53));
  });

  it.each([undefined, null, 5, "", "tomorrow", "2021-10-07T19:07:53Z", "2021-02-30 00:00:00 UTC", "2021-10-07 24:00:00 UTC", "2021-10-07 19:07:53 PST"])(
    "says unknown (null) for %j",
    (value) => {
      expect(tokenExpiryFromHeader(value)).toBeNull();
    },
  );
});
