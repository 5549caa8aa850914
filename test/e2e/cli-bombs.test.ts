// Compression bombs in incident bundles: every reading command refuses them with exit 4, names
// the member, and stays within bounded memory (the child's own peak RSS is measured). The bombs
// are real zstd output of a long run of one byte; the checksums are recomputed as an attacker
// would, so the refusal comes from the size limits, not from a checksum.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";
import { zstdBomb } from "@harnessx/artifacts/test-support";
import { manifestOf, membersOf, reseal, withMember, writeTar, type TarMember } from "@harnessx/recorder/test-support";

const cli = cliWorkspace();

const BOMB_BYTES = 1_200_000_000;
/** Well above a CLI that loads DuckDB and a bundle (~100 MB), far below an inflated bomb (>1.2 GB). */
const MEMORY_BOUND = 200 * 1024 * 1024;
const MB = 1024 * 1024;

let good: TarMember[];
let artifactMember: string;

const READERS: Array<[string, (bundle: string) => string[]]> = [
  ["verify", (b) => ["verify", b]],
  ["show", (b) => ["show", b, "--full"]],
  ["summary", (b) => ["summary", b]],
  ["query", (b) => ["query", b, "SELECT count(*) FROM events"]],
  ["view", (b) => ["view", b, "tools"]],
  ["replay", (b) => ["replay", b]],
  ["diff", (b) => ["diff", b, b]],
];

before(async () => {
  const { runId } = await recordSupportRun(cli.store, { inlinePayloadBytes: 200 });
  const r = await cli.trace("export", runId, "-o", join(cli.work, "good.tar"));
  assert.equal(r.code, 0, r.stderr);
  good = await membersOf(join(cli.work, "good.tar"));
  artifactMember = good.find((m) => m.name.startsWith("artifacts/"))!.name;
});
after(() => cli.cleanup());

async function refusedByEveryReader(file: string, member: RegExp, t: test.TestContext): Promise<void> {
  for (const [name, args] of READERS) {
    const r = await runTrace(args(file), { cwd: cli.work, measureMemory: true });
    t.diagnostic(`${name}: exit ${r.code}, peak RSS ${(r.peakRssBytes! / MB).toFixed(0)} MB; ${r.stderr.trim()}`);
    assert.equal(r.code, 4, `${name}: ${r.stderr}`);
    assert.match(r.stderr, member, name);
    assert.equal(r.stderr.trim().split("\n").length, 1, `${name}: one line on stderr`);
    assert.ok(r.peakRssBytes! < MEMORY_BOUND, `${name}: peak RSS ${(r.peakRssBytes! / MB).toFixed(0)} MB`);
  }
}

describe("compression bombs are refused with exit 4 and bounded memory", () => {
  test("events that decompress to 1.2 GB", async (t) => {
    const bomb = await zstdBomb(BOMB_BYTES);
    const file = join(cli.work, "events-bomb.tar");
    await writeTar(
      file,
      reseal(withMember(good, "events.ndjson.zst", bomb), (m) => {
        for (const e of m.members) delete e.contentBytes;
      }),
    );
    t.diagnostic(`bundle: ${(readFileSync(file).length / 1024).toFixed(0)} KB`);
    await refusedByEveryReader(file, /member "events\.ndjson\.zst".*decompress/, t);
  });

  test("an artifact that decompresses to 1.2 GB (its id kept)", async (t) => {
    const bomb = await zstdBomb(BOMB_BYTES);
    const file = join(cli.work, "artifact-bomb.tar");
    await writeTar(
      file,
      reseal(withMember(good, artifactMember, bomb), (m) => {
        for (const e of m.members) delete e.contentBytes;
      }),
    );
    await refusedByEveryReader(file, new RegExp(`member "${artifactMember.replace(/[./]/g, "\\$&")}".*decompress`), t);
  });

  test("a member whose declared size is smaller than what it decodes to", async (t) => {
    const file = join(cli.work, "size-lie.tar");
    const declared = manifestOf(good).members.find((m) => m.path === "events.ndjson.zst")!.contentBytes!;
    assert.ok(declared > 1000, "the exporter declares the events' size");
    await writeTar(
      file,
      reseal(good, (m) => (m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = 1000)),
    );
    await refusedByEveryReader(file, /member "events\.ndjson\.zst"/, t);
  });
});
