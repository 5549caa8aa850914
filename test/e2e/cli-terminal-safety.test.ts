// Recordings and bundles whose reason, agent name, tool names and error messages hold terminal
// escape sequences: nothing the CLI prints from them may reach the terminal as a control sequence.
// Checked twice: as a pipe (no colours: no control character at all may appear) and as a
// terminal (in-process with TTY streams: the only escapes left are the CLI's own colours).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import type { BundleManifest } from "@harnessx/recorder";
import { runCli } from "@harnessx/cli";
import { cliWorkspace, recordSupportRun } from "@harnessx/cli/test-support";
import { manifestOf, membersOf, reseal, withMember, writeTar } from "@harnessx/recorder/test-support";

const cli = cliWorkspace();

const PLANTED: Record<string, string> = {
  "support-bot": "support-bot\x1b[2J\x1b[H\x1b]0;pwned-title\x07",
  search: "sea\x1b]8;;http://evil.example/\x1b\\rch",
  lookup_customer: "lookup\x9b2J_customer\x1b[5m",
  "upstream timed out": "upstream\r\x1b[1Atimed out\x1b]52;c;ZXZpbA==\x07",
};
const REASON = "TICKET\x1b[2J-\x1b]52;c;ZXZpbA==\x07-42\x85";
/**
 * The body of a planted sequence whose ESC alone was dropped: a stripped sequence must go whole.
 * (JSON may show the body after an escaped ESC, `\u001b]0;...`: the terminal sees text there.)
 */
const LEAKS = [/(?<!u001b)\]0;pwned-title/, /(?<!u001b)\]8;;http:\/\/evil/, /(?<!u001b)\]52;c;ZXZpbA/];
const leaksIn = (text: string): RegExp | undefined => LEAKS.find((leak) => leak.test(text));
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** The CLI's own colours (picocolors): bold, dim, red, green, yellow, cyan and their resets. */
const OWN_SGR = /\x1b\[(?:1|2|22|31|32|33|36|39)m/g;

let bundle: string;
let runId: string;

function plant(value: unknown): unknown {
  if (typeof value === "string")
    return Object.entries(PLANTED).reduce((s, [from, to]) => s.split(from).join(to), value);
  if (Array.isArray(value)) return value.map(plant);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plant(v)]));
  return value;
}

const plantLines = (text: string): string =>
  `${text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.stringify(plant(JSON.parse(l))))
    .join("\n")}\n`;

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
  PLANTED[runId] = `${runId}\x1b[8m`;
  assert.equal((await cli.trace("export", runId, "-o", join(cli.work, "plain.tar"))).code, 0);
  // The bundle: events, run.json and the manifest's reason and agent planted, checksums resealed.
  const members = await membersOf(join(cli.work, "plain.tar"));
  const ndjson = Buffer.from(
    plantLines((await zstdDecompress(members.find((m) => m.name === "events.ndjson.zst")!.data)).toString()),
  );
  const run = Buffer.from(
    JSON.stringify(plant(JSON.parse(members.find((m) => m.name === "run.json")!.data.toString()))),
  );
  bundle = join(cli.work, "hostile.tar");
  await writeTar(
    bundle,
    reseal(
      withMember(withMember(members, "events.ndjson.zst", await zstdCompress(ndjson)), "run.json", run),
      (m: BundleManifest) => {
        m.trigger.reason = REASON;
        m.run.agent = String(plant(manifestOf(members).run.agent));
        m.run.runId = String(plant(manifestOf(members).run.runId));
        m.members.find((e) => e.path === "events.ndjson.zst")!.contentBytes = ndjson.length;
      },
    ),
  );
  // The store run: the same planted events in one plain segment, a planted run.json.
  const runDir = join(cli.store, "runs", runId);
  for (const name of readdirSync(join(runDir, "segments"))) rmSync(join(runDir, "segments", name));
  writeFileSync(join(runDir, "segments", "000001.ndjson"), ndjson);
  writeFileSync(join(runDir, "run.json"), run);
});
after(() => cli.cleanup());

const COMMANDS = (): string[][] => [
  ["verify", bundle],
  ["--json", "verify", bundle],
  ["show", bundle],
  ["show", bundle, "--full"],
  ["--json", "show", bundle, "--full"],
  ["show", runId],
  ["show", runId, "--errors"],
  ["summary", bundle],
  ["--json", "summary", bundle],
  ["summary", runId],
  ["view", bundle, "tools"],
  ["view", runId, "errors"],
  ["view", runId, "tools", "--csv"],
  ["query", bundle, "SELECT * FROM spans"],
  ["query", runId, "SELECT kind, attrs FROM events", "--csv"],
  ["--json", "query", runId, "SELECT * FROM events"],
  ["ls"],
  ["--json", "ls"],
  ["replay", bundle],
  ["tail", runId],
  ["--json", "tail", runId],
  ["tail", runId, "--errors"],
  ["diff", runId, bundle],
  ["--json", "diff", runId, bundle],
  ["recover", runId],
];

describe("planted escape sequences never reach the terminal", () => {
  test("as a pipe: no control character in stdout or stderr", async () => {
    for (const args of COMMANDS()) {
      const r = await cli.trace(...args);
      assert.ok(r.code === 0 || r.code === 1, `${args.join(" ")}: exit ${r.code} ${r.stderr}`);
      for (const [stream, text] of [
        ["stdout", r.stdout],
        ["stderr", r.stderr],
      ] as const) {
        const found = CONTROL.exec(text);
        assert.equal(
          found,
          null,
          `${args.join(" ")} ${stream}: ${JSON.stringify(text.slice(Math.max(0, (found?.index ?? 0) - 40), (found?.index ?? 0) + 40))}`,
        );
        assert.equal(leaksIn(text), undefined, `${args.join(" ")} ${stream}`);
      }
    }
  });

  test("on a terminal: only the CLI's own colours", async () => {
    for (const args of COMMANDS()) {
      const streams = [new PassThrough(), new PassThrough()].map((s) =>
        Object.assign(s, { isTTY: true, columns: 160 }),
      );
      const chunks: string[][] = [[], []];
      for (const [i, s] of streams.entries()) s.on("data", (d: Buffer) => chunks[i]!.push(d.toString()));
      const io = {
        stdout: streams[0] as unknown as NodeJS.WriteStream,
        stderr: streams[1] as unknown as NodeJS.WriteStream,
        env: {},
        cwd: cli.work,
      };
      const code = await runCli(["node", "trace", "--store", cli.store, "--quiet", ...args], io);
      assert.ok(code === 0 || code === 1, `${args.join(" ")}: exit ${code} ${chunks[1]!.join("")}`);
      for (const text of chunks.map((c) => c.join(""))) {
        const rest = text.replace(OWN_SGR, "");
        const found = CONTROL.exec(rest);
        assert.equal(
          found,
          null,
          `${args.join(" ")}: ${JSON.stringify(rest.slice(Math.max(0, (found?.index ?? 0) - 40), (found?.index ?? 0) + 40))}`,
        );
        assert.equal(leaksIn(text), undefined, args.join(" "));
      }
    }
  });
});
