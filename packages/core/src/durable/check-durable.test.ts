// The `durable` option is checked when the agent is built: a store missing one of its methods, or
// an unknown setting, fails there with a ConfigError rather than at the first commit or resume.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError } from "../errors.js";
import { checkDurable } from "./check-durable.js";
import type { DurableOptions, DurableStore } from "./durable-store.js";

const store: DurableStore = { append: async () => {}, read: async () => undefined, close: async () => {} };

const refused = (message: RegExp) => (error: unknown) => error instanceof ConfigError && message.test(error.message);

describe("checkDurable", () => {
  test("a store without append, read or close (or none at all) is refused, naming what a store needs", () => {
    const storeMessage =
      /^durable\.store must be a DurableStore \(append, read, close\), e\.g\. new FileDurableStore\(dir\)$/;
    for (const missing of ["append", "read", "close"] as const) {
      const partial = { ...store, [missing]: "not a function" };
      assert.throws(
        () => checkDurable({ store: partial as never }),
        refused(storeMessage),
        `a store whose ${missing} is not a function`,
      );
    }
    assert.throws(() => checkDurable({ store: undefined as never }), refused(storeMessage));
    assert.throws(() => checkDurable(undefined as never), refused(storeMessage));
  });

  test("durability is fsync, group or absent", () => {
    for (const durability of [undefined, "fsync", "group"] as const)
      assert.doesNotThrow(() => checkDurable({ store, durability }));
    for (const durability of ["sometimes", "", "FSYNC"]) {
      assert.throws(
        () => checkDurable({ store, durability: durability as never }),
        refused(
          new RegExp(
            `^durable\\.durability must be "fsync" or "group", not ${JSON.stringify(JSON.stringify(durability)).slice(1, -1)}$`,
          ),
        ),
      );
    }
  });

  test("interrupted is fail, ask or absent", () => {
    for (const interrupted of [undefined, "fail", "ask"] as const)
      assert.doesNotThrow(() => checkDurable({ store, interrupted }));
    for (const interrupted of ["retry", "", "FAIL"]) {
      assert.throws(
        () => checkDurable({ store, interrupted: interrupted as never }),
        refused(
          new RegExp(
            `^durable\\.interrupted must be "fail" or "ask", not ${JSON.stringify(JSON.stringify(interrupted)).slice(1, -1)}$`,
          ),
        ),
      );
    }
  });

  test("the options pass through unchanged", () => {
    const options: DurableOptions = { store, durability: "group", interrupted: "ask" };
    assert.equal(checkDurable(options), options);
  });
});
