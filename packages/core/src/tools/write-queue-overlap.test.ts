// Which declared paths overlap, in both orders: a later call waits for an earlier one when either
// path holds the other. Each call's work is held open by the test, so what may start is seen
// directly, without timings.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import type { ToolRun } from "./executor.js";
import { tool } from "./tool.js";
import { WriteQueue } from "./write-queue.js";

const writer = (writes: readonly string[]) =>
  tool({ name: "write_file", description: "writes", writes, execute: () => "written" });

/** A queued call whose work waits until `finish` is called; `started` says whether its work began. */
function queued(queue: WriteQueue, writes: readonly string[], id: string) {
  let finish!: () => void;
  const state = { started: false };
  const held = new Promise<void>((r) => (finish = r));
  const done = queue.run(writer(writes), { id, name: "write_file", input: {} }, async (): Promise<ToolRun> => {
    state.started = true;
    await held;
    return {
      rawResult: "written",
      outcome: "executed",
      result: { toolCallId: id, name: "write_file", content: "written", isError: false },
    };
  });
  return { state, finish, done };
}

/** Lets every pending promise and queued callback of the queue run. */
const settle = () => new Promise((r) => setImmediate(r));

/** True when a call on `second` had to wait for a running call on `first`. */
async function waits(first: readonly string[], second: readonly string[]): Promise<boolean> {
  const queue = new WriteQueue();
  const a = queued(queue, first, "a");
  const b = queued(queue, second, "b");
  await settle();
  assert.equal(a.state.started, true, "the first call starts at once");
  const waited = !b.state.started;
  a.finish();
  await a.done;
  await settle();
  assert.equal(b.state.started, true, "the second call starts once the first is done");
  b.finish();
  await b.done;
  return waited;
}

describe("overlapping writes wait, in either order", () => {
  test("a file, then the folder holding it", async () => {
    assert.equal(await waits(["src/app.ts"], ["src"]), true);
  });

  test("a folder, then a file inside it", async () => {
    assert.equal(await waits(["src"], ["src/app.ts"]), true);
  });

  test("a file deep inside a folder, either order", async () => {
    assert.equal(await waits(["src/lib/deep/x.ts"], ["src"]), true);
    assert.equal(await waits(["src"], ["src/lib/deep/x.ts"]), true);
  });

  test("the same file, named relatively and absolutely", async () => {
    assert.equal(await waits(["src/app.ts"], [resolve("src/app.ts")]), true);
    assert.equal(await waits([resolve("src/app.ts")], ["./src/../src/app.ts"]), true);
  });

  test("one overlapping path among several is enough, in either list", async () => {
    assert.equal(await waits(["docs/a.md", "src/app.ts"], ["lib", "src"]), true);
    assert.equal(await waits(["lib", "src"], ["docs/a.md", "src/app.ts"]), true);
  });
});

describe("paths that do not overlap run together", () => {
  test("siblings, and a name that only starts like a folder's", async () => {
    assert.equal(await waits(["src/a.ts"], ["src/b.ts"]), false);
    assert.equal(await waits(["src"], ["src2/app.ts"]), false, "src2 is not inside src");
    assert.equal(await waits(["src2/app.ts"], ["src"]), false);
    assert.equal(await waits(["src/app.ts"], ["src/app.ts.bak"]), false);
  });
});
