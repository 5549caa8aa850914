// Bundles whose checksums all match but whose contents are not what the format says: every
// reading command refuses them as invalid input (exit 4), naming the member (and the line).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import type { BundleManifest } from "@harnessx/recorder";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";
import { membersOf, reseal, withMember, writeTar, type TarMember } from "@harnessx/recorder/test-support";

const cli = cliWorkspace();

let good: TarMember[];

before(async () => {
  const { runId } = await recordSupportRun(cli.store);
  assert.equal((await cli.trace("export", runId, "-o", join(cli.work, "good.tar"))).code, 0);
  good = await membersOf(join(cli.work, "good.tar"));
});
after(() => cli.cleanup());

async function refused(name: string, members: TarMember[], message: RegExp): Promise<void> {
  await writeTar(join(cli.work, name), members);
  for (const args of [
    ["verify", name],
    ["show", name],
    ["summary", name],
    ["query", name, "SELECT 1"],
  ]) {
    const r = await runTrace(args, { cwd: cli.work });
    assert.equal(r.code, 4, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.doesNotMatch(r.stdout, /#undefined/);
  }
}

async function withEventLine(line: string): Promise<TarMember[]> {
  const text = (await zstdDecompress(good.find((m) => m.name === "events.ndjson.zst")!.data)).toString();
  const lines = text.trimEnd().split("\n");
  lines.splice(1, 0, line);
  const ndjson = Buffer.from(`${lines.join("\n")}\n`);
  return reseal(
    withMember(good, "events.ndjson.zst", await zstdCompress(ndjson)),
    (m) => (m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = ndjson.length),
  );
}

describe("well-checksummed bundles with invalid contents exit 4", () => {
  test("garbage run.json", async () => {
    await refused(
      "garbage-run.tar",
      reseal(withMember(good, "run.json", Buffer.from("\u0000garbage"))),
      /member "run\.json" is not valid: not valid JSON/,
    );
  });
  test("a manifest without run", async () => {
    await refused(
      "no-run.tar",
      reseal(good, (m) => delete (m as Partial<BundleManifest>).run),
      /member "manifest\.json" is not valid: run is missing/,
    );
  });
  test("an event line [1,2]", async () => {
    await refused(
      "array-line.tar",
      await withEventLine("[1,2]"),
      /member "events\.ndjson\.zst" is not valid: line 2: the value must be an object/,
    );
  });
  test("an event line without seq", async () => {
    await refused(
      "no-seq.tar",
      await withEventLine('{"v":1,"ts":1,"runId":"r","kind":"custom","attrs":{}}'),
      /line 2: seq is missing/,
    );
  });
});
