import assert from "node:assert/strict";
import { ExtensionContractError, PrivilegeWideningError } from "../errors.js";
import { validateContribution } from "../extensions/validate-contribution.js";

const owners: Record<string, string | null> = { app_tool: null, their_tool: "other" };
const check = { extension: "x", maxFragmentChars: 10, toolOwner: (name: string) => owners[name] };

/**
 * Validates `value` as extension "x"'s contribution, with fragments limited to 10 characters and
 * `app_tool` held by the application, `their_tool` by extension "other".
 */
export const validate = (value: unknown) => validateContribution(value, check);

/** A contribution of extension "x" with these members, as a plain object. */
export const raw = (members: Record<string, unknown>) => ({ extension: "x", ...members });

/** Asserts that validating `value` throws `kind` (and only it) for `member`, with `message`. */
export function refuses(value: unknown, kind: typeof ExtensionContractError, member: string, message: string | RegExp) {
  assert.throws(
    () => validate(value),
    (err: unknown) => {
      assert.ok(err instanceof kind, `expected ${kind.name}, got ${String(err)}`);
      assert.equal(
        kind === ExtensionContractError,
        !(err instanceof PrivilegeWideningError),
        "a contract error is not a widening, and the reverse",
      );
      assert.deepEqual([err.extension, err.member], ["x", member]);
      if (typeof message === "string") assert.equal(err.message, `extension "x": ${member}: ${message}`);
      else assert.match(err.message, message);
      return true;
    },
  );
}
