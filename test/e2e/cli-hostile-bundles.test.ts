// The bundle fuzzer's hostile mutations, through the real CLI: each one `trace verify` refuses
// with exit 4 and one line on stderr (the fuzzer itself checks thousands against openBundle).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";
import { zstdBomb } from "@harnessx/artifacts/test-support";
import { hostileMutation, mutate, sampleOf, type BundleSample, membersOf } from "@harnessx/recorder/test-support";
import { fuzzParameters } from "../support/fuzz.js";

const cli = cliWorkspace();

const CASES = 30;

let sample: BundleSample;

before(async () => {
  const { runId } = await recordSupportRun(cli.store, { inlinePayloadBytes: 200 });
  const good = join(cli.work, "good.tar");
  assert.equal((await cli.trace("export", runId, "-o", good)).code, 0);
  sample = sampleOf(await membersOf(good), readFileSync(good), await zstdBomb(300 * 1024 * 1024));
});
after(() => cli.cleanup());

describe("hostile bundles through trace verify", () => {
  test(`${CASES} sampled hostile bundles: each exits 4 with one line naming the bundle`, async (t) => {
    const { seed } = fuzzParameters(CASES);
    const mutations = fc.sample(hostileMutation(sample.members.length), { seed, numRuns: CASES });
    let refused = 0;
    for (const [i, mutation] of mutations.entries()) {
      const file = join(cli.work, `hostile-${i}.tar`);
      writeFileSync(file, await mutate(sample, [mutation]));
      const r = await runTrace(["verify", file], { cwd: cli.work });
      assert.equal(r.code, 4, `${mutation.label}: exit ${r.code} ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^trace: incident bundle .*hostile-${i}\\.tar: .+\\n$`), mutation.label);
      refused++;
    }
    t.diagnostic(`${mutations.length} hostile bundles tried, ${refused} refused with exit 4`);
  });
});
