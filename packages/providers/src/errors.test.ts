import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { retryAfterMs } from "./errors.js";

describe("retryAfterMs reads the server's retry hint", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  const headers = (h: Record<string, string>) => new Headers(h);

  test("seconds, fractional seconds and milliseconds", () => {
    assert.equal(retryAfterMs(headers({ "retry-after": "1" }), now), 1000);
    assert.equal(retryAfterMs(headers({ "retry-after": "0.25" }), now), 250);
    assert.equal(retryAfterMs(headers({ "retry-after-ms": "1500" }), now), 1500);
  });

  test("retry-after-ms wins over retry-after", () => {
    assert.equal(retryAfterMs(headers({ "retry-after-ms": "20", "retry-after": "30" }), now), 20);
  });

  test("an HTTP date counts from now, never below zero", () => {
    assert.equal(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now), 7000);
    assert.equal(retryAfterMs(headers({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }), now), 0);
  });

  test("absent or unreadable hints give undefined", () => {
    assert.equal(retryAfterMs(undefined, now), undefined);
    assert.equal(retryAfterMs(headers({}), now), undefined);
    assert.equal(retryAfterMs(headers({ "retry-after": "soon" }), now), undefined);
    assert.equal(retryAfterMs(headers({ "retry-after-ms": "-5", "retry-after": "2" }), now), 2000);
  });
});
