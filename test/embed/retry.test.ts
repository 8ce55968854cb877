import { describe, expect, it } from "vitest";
import { backoffMs, isRetryableStatus, retryAfterMs } from "../../src/embed/retry.ts";

describe("retry policy", () => {
  it("retries 408, 429 and 5xx only", () => {
    expect([400, 401, 404, 408, 429, 500, 503].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it("backs off exponentially with jitter, capped at 10 s", () => {
    for (let i = 0; i < 50; i++) {
      const d = backoffMs(2, 100);
      expect(d).toBeGreaterThanOrEqual(200);
      expect(d).toBeLessThanOrEqual(400);
    }
    expect(backoffMs(30, 500)).toBeLessThanOrEqual(10_000);
  });

  it("parses Retry-After seconds and HTTP dates, capped and never negative", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs("2", now)).toBe(2000);
    expect(retryAfterMs("Wed, 01 Jan 2025 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("86400", now)).toBe(60_000);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
  });
});
