// Property tests of openBundle against damaged and forged bundles (truncations, bit flips, member
// renames, duplicates and reordering, size lies, nested compression, path traversal, bombs, huge
// declared sizes). Whatever the bytes, opening, verifying and reading either succeeds with the
// original content or fails with a BundleError (which the CLI maps to exit 4): never another
// exception, never a hang, and memory stays bounded. Seeded; scaled by `npm run fuzz`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { fuzzParameters } from "../../../test/support/fuzz.js";
import { BundleError, openBundle, type OpenedBundle } from "../index.js";
import { recordRunWithArtifact } from "../test-support/agents.js";
import { zstdBomb } from "../../../packages/artifacts/src/test-support/bombs.js";
import {
  anyMutation,
  hostileMutation,
  mutate,
  sampleOf,
  type BundleSample,
  type Mutation,
} from "../test-support/bundle-mutations.js";
import { membersOf } from "../test-support/bundle-surgery.js";
import { tempDir } from "../../../test/support/system.js";

const RUNS = 200;
const HANG_MS = 10_000;
const MEMORY_GROWTH_LIMIT = 256 * 1024 * 1024;

let dir: string;
let cleanup: () => void;
let sample: BundleSample;
let original: OpenedBundle;
let baselineRss: number;
let peakRss = 0;
let peakCase = "";
const tally = { hostile: { tried: 0, refused: 0 }, any: { tried: 0, refused: 0, intact: 0 } };

before(async () => {
  ({ dir, cleanup } = tempDir("hx-bundle-fuzz-"));
  const { runId, recorder } = await recordRunWithArtifact(dir);
  const { path } = await recorder.exportIncident({ runId, reason: "fuzz", out: join(dir, "good.tar") });
  original = await openBundle(path);
  sample = sampleOf(await membersOf(path), readFileSync(path), await zstdBomb(300 * 1024 * 1024));
  baselineRss = process.memoryUsage().rss;
});
after(() => cleanup());

let n = 0;
/** Opens the bytes and reads everything; resolves to the opened bundle or the error it was refused with. */
async function openAndRead(bytes: Buffer, label: string): Promise<{ bundle?: OpenedBundle; error?: unknown }> {
  const path = join(dir, `case-${++n % 8}.tar`);
  writeFileSync(path, bytes);
  const work = (async () => {
    const bundle = await openBundle(path);
    for (const id of bundle.artifacts) await bundle.artifact(id);
    return { bundle };
  })().catch((error: unknown) => ({ error }));
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS)),
  );
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
    const rss = process.memoryUsage().rss;
    if (rss > peakRss) [peakRss, peakCase] = [rss, label];
  }
}

/** An opened bundle holds exactly the original content (its artifacts were read and verified). */
function assertOriginal(bundle: OpenedBundle): void {
  assert.deepEqual(bundle.events, original.events);
  assert.deepEqual(bundle.run, original.run);
  assert.deepEqual(bundle.manifest, original.manifest);
  assert.deepEqual([...bundle.artifacts].sort(), [...original.artifacts].sort());
}

function assertTyped(error: unknown, labels: string): void {
  assert.ok(error instanceof BundleError, `${labels}: not a BundleError: ${(error as Error)?.stack ?? String(error)}`);
}

const labels = (mutations: readonly Mutation[]) => mutations.map((m) => m.label).join(" + ");

describe("openBundle on hostile bundles", () => {
  test("every bundle that says something else than it was written to is refused with a BundleError", async () => {
    await fc.assert(
      fc.asyncProperty(hostileMutation(sample.members.length), async (mutation) => {
        tally.hostile.tried++;
        const { bundle, error } = await openAndRead(await mutate(sample, [mutation]), mutation.label);
        assert.equal(bundle, undefined, `${mutation.label}: opened`);
        assertTyped(error, mutation.label);
        tally.hostile.refused++;
      }),
      fuzzParameters(RUNS, { includeErrorInReport: true }),
    );
  });

  test("any damage: opened with the original content, or refused with a BundleError", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyMutation(sample.members.length), { minLength: 1, maxLength: 3 }),
        async (mutations) => {
          tally.any.tried++;
          const { bundle, error } = await openAndRead(await mutate(sample, mutations), labels(mutations));
          if (bundle) {
            assertOriginal(bundle);
            tally.any.intact++;
          } else {
            assertTyped(error, labels(mutations));
            tally.any.refused++;
          }
        },
      ),
      fuzzParameters(RUNS, { includeErrorInReport: true }),
    );
  });

  test("tally: all hostile bundles refused; memory stayed bounded", (t) => {
    const growth = peakRss - baselineRss;
    t.diagnostic(
      `hostile: ${tally.hostile.tried} bundles tried, ${tally.hostile.refused} refused with BundleError (exit 4)`,
    );
    t.diagnostic(
      `any damage: ${tally.any.tried} tried, ${tally.any.refused} refused, ${tally.any.intact} opened intact (damage outside the content)`,
    );
    t.diagnostic(
      `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB, ${(growth / 2 ** 20).toFixed(0)} MiB over the start (after: ${peakCase})`,
    );
    assert.ok(tally.hostile.tried >= fuzzParameters(RUNS).numRuns!, `${tally.hostile.tried} tried`);
    assert.equal(tally.hostile.refused, tally.hostile.tried);
    assert.equal(tally.any.refused + tally.any.intact, tally.any.tried);
    assert.ok(growth < MEMORY_GROWTH_LIMIT, `RSS grew by ${(growth / 2 ** 20).toFixed(0)} MiB`);
  });
});
