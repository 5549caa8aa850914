import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, recordSupportRun, runTrace, snapshot, type CliRun } from "@harnessx/cli/test-support";
import { writeTar } from "@harnessx/recorder/test-support";

const cli = cliWorkspace();

let runA: string;
let runB: string;
let bundle: string;

/** A clear one-line message on stderr, the expected exit code, and not a byte written or changed in the work dir. */
async function refuses(
  args: string[],
  exitCode: number,
  message: RegExp,
  options: { store?: string } = {},
): Promise<CliRun> {
  const before = snapshot(cli.work);
  const r = await runTrace(["--store", options.store ?? cli.store, ...args], { cwd: cli.work });
  assert.equal(r.code, exitCode, `exit code of trace ${args.join(" ")}: ${r.stderr}`);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got:\n${r.stderr}`);
  assert.match(lines[0]!, /^trace: /);
  assert.match(lines[0]!, message);
  assert.deepEqual(snapshot(cli.work), before, "nothing written or changed");
  return r;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

before(async () => {
  runA = (await recordSupportRun(cli.store)).runId;
  runB = (await recordSupportRun(cli.store)).runId;
  bundle = join(cli.work, "good.tar");
  const r = await cli.trace("export", runA, "-o", bundle);
  assert.equal(r.code, 0, r.stderr);
});
after(() => cli.cleanup());

describe("runs that cannot be resolved are refused with exit 3", () => {
  test("a missing run", async () => {
    await refuses(["summary", "run_doesnotexist"], 3, /no run matches "run_doesnotexist"/);
    await refuses(["report", "run_doesnotexist", "-o", "r.html"], 3, /no run matches/);
    assert.equal(existsSync(join(cli.work, "r.html")), false);
  });
  test("a prefix that matches two runs lists them", async () => {
    const prefix = commonPrefix(runA, runB);
    const r = await refuses(["show", prefix], 3, /is ambiguous: it matches 2 runs/);
    assert.ok(r.stderr.includes(runA) && r.stderr.includes(runB));
  });
  test("a missing bundle file", async () => {
    await refuses(["verify", "nope.tar"], 3, /no such bundle: nope\.tar/);
    await refuses(["summary", "./nope.tar"], 3, /no such file or directory/);
  });
});

describe("unusable input is refused with exit 4", () => {
  test("a directory that is not a store", async () => {
    const plain = join(cli.work, "not-a-store");
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, "notes.txt"), "hello");
    await refuses(["ls"], 4, /not-a-store is not a harnessx recording store/, { store: plain });
    await refuses(["show", "run_x"], 4, /is not a harnessx recording store/, { store: plain });
  });
  test("a corrupt bundle (one byte changed) names the failing member", async () => {
    const bytes = readFileSync(bundle);
    const corrupt = Buffer.from(bytes);
    // The member's tar header starts on a 512-byte block; its data follows the header.
    let header = -1;
    for (let i = 0; i < corrupt.length; i += 512)
      if (corrupt.subarray(i, i + 17).toString() === "events.ndjson.zst") header = i;
    assert.ok(header >= 0);
    const at = header + 512 + 10;
    corrupt[at]! ^= 0xff;
    const path = join(cli.work, "corrupt.tar");
    writeFileSync(path, corrupt);
    await refuses(["verify", "corrupt.tar"], 4, /corrupt\.tar: member "events\.ndjson\.zst" fails verification/);
    await refuses(["summary", "corrupt.tar"], 4, /fails verification/);
  });
  test("a truncated bundle", async () => {
    const bytes = readFileSync(bundle);
    writeFileSync(join(cli.work, "truncated.tar"), bytes.subarray(0, Math.floor(bytes.length / 2)));
    await refuses(["verify", "truncated.tar"], 4, /truncated/);
  });
  test("a bundle with a ../ member path is refused and nothing is extracted", async () => {
    await writeTar(join(cli.work, "escape.tar"), [
      {
        name: "manifest.json",
        data: Buffer.from(JSON.stringify({ format: "harnessx.incident", version: 1, members: [] })),
      },
      { name: "../escaped.txt", data: Buffer.from("pwned") },
    ]);
    await refuses(["verify", "escape.tar"], 4, /refused member "\.\.\/escaped\.txt"/);
    await refuses(["report", "escape.tar", "-o", "escape.html"], 4, /refused member/);
    assert.equal(existsSync(join(cli.work, "..", "escaped.txt")), false);
  });
  test("--json verify of a corrupt bundle says ok: false on stdout", async () => {
    const r = await cli.trace("--json", "verify", "truncated.tar");
    assert.equal(r.code, 4);
    assert.equal((JSON.parse(r.stdout) as { ok: boolean }).ok, false);
  });
  test("a scrub rules file that is not valid", async () => {
    writeFileSync(join(cli.work, "bad-rules.json"), JSON.stringify({ patterns: [{ name: "x", regex: "(" }] }));
    await refuses(
      ["scrub", "good.tar", "-o", "scrubbed.tar", "--rules", "bad-rules.json"],
      4,
      /not a valid regular expression/,
    );
  });
});

describe("command-line mistakes are usage errors (exit 2)", () => {
  test("an unknown --to", async () => {
    await refuses(
      ["convert", runA, "--to", "jaeger"],
      2,
      /argument 'jaeger' is invalid\. Allowed choices are otlp, chrome/,
    );
  });
  test("an unknown --kind lists the kinds", async () => {
    await refuses(
      ["show", runA, "--kind", "tool_call_end,bogus"],
      2,
      /--kind: unknown value "bogus"; valid values: agent_start, agent_end, .*tool_call_end.*recorder\.dropped, recorder\.recovered/,
    );
  });
  test("an unknown --status lists the statuses", async () => {
    await refuses(
      ["ls", "--status", "bogus"],
      2,
      /--status: unknown value "bogus"; valid values: running, completed, failed, cancelled, awaiting_approval, incomplete, crashed, invalid/,
    );
  });
  test("push without a target, or with both", async () => {
    await refuses(["push", runA], 2, /choose one target/);
  });
});

describe("SQL errors show DuckDB's message and exit 1", () => {
  test("invalid SQL", async () => {
    await refuses(
      ["query", runA, "SELEC * FROM events"],
      1,
      /query failed: Parser Error: syntax error at or near "SELEC"/,
    );
  });
  test("an unknown table", async () => {
    await refuses(
      ["query", runA, "SELECT * FROM nope"],
      1,
      /query failed: Catalog Error: Table with name nope does not exist/,
    );
  });
});

describe("an unreachable push target fails with exit 5 after its timeout", () => {
  let silent: Server;
  let sockets: Socket[] = [];
  let closedPort: number;
  before(async () => {
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // Accepts connections and never answers: the exporter must give up at its timeout.
    silent = createServer(() => undefined);
    silent.on("connection", (s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  after(() => {
    for (const s of sockets) s.destroy();
    sockets = [];
    silent.close();
  });
  test("a refused connection", async () => {
    await refuses(
      ["push", runA, "--otlp", `http://127.0.0.1:${closedPort}/v1/traces`, "--timeout", "2"],
      5,
      /could not deliver to http:\/\/127\.0\.0\.1:\d+\/v1\/traces within 2s: 0 spans sent, \d+ failed/,
    );
  });
  test("a server that never answers", async () => {
    const port = (silent.address() as AddressInfo).port;
    await refuses(
      ["push", runA, "--otlp", `http://127.0.0.1:${port}/v1/traces`, "--timeout", "1"],
      5,
      /could not deliver .* within 1s/,
    );
  });
});
