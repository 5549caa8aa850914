// Every command that takes a run also takes its bundle and answers identically: both are read
// through the recorder's one read model (openRecording).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordBusyRun, recordSupportRun } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

const runs: Record<string, { runId: string; bundle: string }> = {};

before(async () => {
  // Payloads stored aside as artifacts (support), a retried model call and a spilled result (busy).
  runs.support = {
    runId: (await recordSupportRun(cli.store, { inlinePayloadBytes: 300 })).runId,
    bundle: join(cli.work, "support.tar"),
  };
  runs.busy = { runId: (await recordBusyRun(cli.store)).runId, bundle: join(cli.work, "busy.tar") };
  for (const { runId, bundle } of Object.values(runs)) {
    const r = await cli.trace("export", runId, "-o", bundle);
    assert.equal(r.code, 0, r.stderr);
  }
});
after(() => cli.cleanup());

/** Runs `args` with `@` standing for the run id, then for its bundle file; both must succeed with the same stdout (after `normalize`). */
async function same(
  name: string,
  args: string[],
  normalize: (stdout: string, source: string) => string = (s) => s,
): Promise<string> {
  const { runId, bundle } = runs[name];
  const out: string[] = [];
  for (const source of [runId, bundle]) {
    const r = await cli.trace(...args.map((a) => a.replaceAll("@", source)));
    assert.equal(r.code, 0, `trace ${args.join(" ")} on ${source}: ${r.stderr}`);
    out.push(normalize(r.stdout, source));
  }
  assert.ok(out[0].trim().length > 0, `trace ${args.join(" ")} printed something`);
  assert.equal(out[1], out[0], `trace ${args.join(" ")}: the bundle answers as the run does`);
  return out[0];
}

for (const name of ["support", "busy"]) {
  describe(`the ${name} run and its bundle answer identically`, () => {
    test("summary (text, and --json but for the source path it names)", async () => {
      await same(name, ["summary", "@"]);
      const json = await same(name, ["--json", "summary", "@"], (s) =>
        JSON.stringify({ ...(JSON.parse(s) as object), source: "(where it was read from)" }),
      );
      assert.ok((JSON.parse(json) as { events: number }).events > 0);
    });
    test("show: the timeline, and --json --full with every payload", async () => {
      await same(name, ["show", "@"]);
      await same(name, ["show", "@", "--errors"]);
      const events = JSON.parse(await same(name, ["--json", "show", "@", "--full"])) as Array<{ payload?: unknown }>;
      assert.ok(events.some((e) => e.payload !== undefined && e.payload !== null));
    });
    test("query: every table, every column", async () => {
      for (const sql of [
        "SELECT * FROM events ORDER BY seq",
        "SELECT * FROM spans ORDER BY span_id",
        "SELECT * FROM artifacts ORDER BY seq, sha256",
      ]) {
        await same(name, ["--json", "query", "@", sql]);
      }
      await same(name, [
        "query",
        "--csv",
        "@",
        "SELECT kind, name, status, duration_ms, input_tokens FROM spans ORDER BY start_ts, span_id",
      ]);
    });
    test("view: the fixed tables", async () => {
      for (const view of ["tools", "models", "errors", "spills", "retries"])
        await same(name, ["--json", "view", "@", view]);
    });
    test("convert --to otlp and --to chrome", async () => {
      const otlp = await same(name, ["convert", "@", "--to", "otlp", "--content"]);
      assert.match(otlp, /"resourceSpans"/);
      await same(name, ["convert", "@", "--to", "chrome"]);
    });
    test("report: the same page but for the time it was generated", async () => {
      await same(name, ["--json", "report", "@", "-o", "@.html"], (s) =>
        JSON.stringify({ ...(JSON.parse(s) as object), path: "(where it was written)" }),
      );
      const pages = [join(cli.work, `${runs[name].runId}.html`), `${runs[name].bundle}.html`].map((page) =>
        readFileSync(page, "utf8").replace(/generated [^·]+·/, "generated ·"),
      );
      assert.match(pages[0], /generated ·/);
      assert.equal(pages[1], pages[0]);
    });
  });
}

describe("replay reproduces from the run and from its bundle alike", () => {
  test("--json replay", async () => {
    const report = JSON.parse(await same("support", ["--json", "replay", "@"])) as { reproduced: boolean };
    assert.equal(report.reproduced, true);
  });
});
