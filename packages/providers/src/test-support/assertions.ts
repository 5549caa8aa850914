import assert from "node:assert/strict";
import { ProviderError, type ProviderErrorKind } from "@harnessx/core";

/** An `assert.rejects` check: a ProviderError of this kind, then any further checks. */
export function isKind(kind: ProviderErrorKind, check: (e: ProviderError) => void = () => {}) {
  return (err: unknown) => {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    check(err);
    return true;
  };
}
