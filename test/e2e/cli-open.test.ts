// `trace open <run>`: the report written where it belongs, opened where a browser can be, its path printed always.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { cliWorkspace, recordSupportRun, runTrace } from "@harnessx/cli/test-support";

const cli = cliWorkspace();
// No display, whatever the machine running the tests has: nothing may pop up, and the path is all there is.
const headless = { DISPLAY: "", WAYLAND_DISPLAY: "" };
const open = (...args: string[]) => runTrace(["--store", cli.store, "open", ...args], { cwd: cli.work, env: headless });

let runId: string;

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
});
after(() => cli.cleanup());

/** A report as `trace report` writes it: self-contained HTML naming the run, with its packed data and script. */
function assertReport(path: string, id: string): void {
  const html = readFileSync(path, "utf8");
  assert.ok(html.startsWith("<!doctype html>"), "an HTML page");
  assert.ok(html.includes(`<title>trace report: ${id}</title>`));
  assert.match(html, /<script id="trace-index" type="application\/octet-stream">[A-Za-z0-9+/=\s]+<\/script>/);
  assert.ok(html.trimEnd().endsWith("</html>"));
}

describe("trace open without a display", () => {
  test("writes the run's report to the store's reports folder, prints its path, says why nothing opened, exits 0", async () => {
    const r = await open(runId);
    assert.equal(r.code, 0, r.stderr);
    const path = r.stdout.trim();
    assert.equal(path, join(cli.store, "reports", `${runId}.html`));
    assertReport(path, runId);
    assert.match(r.stderr, /not opened: no display \(DISPLAY and WAYLAND_DISPLAY are unset\)/);
  });

  test("again: the report is rewritten in place; a ref and --json work too", async () => {
    const r = await runTrace(["--store", cli.store, "--json", "open", "last"], { cwd: cli.work, env: headless });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      path: string;
      runId: string;
      opened: boolean;
      reason: string;
      events: number;
    };
    assert.equal(out.runId, runId);
    assert.equal(out.path, join(cli.store, "reports", `${runId}.html`));
    assert.equal(out.opened, false);
    assert.match(out.reason, /no display/);
    assert.equal(out.events, 20);
    assertReport(out.path, runId);
  });

  test("a bundle's report goes to a temporary folder, not beside the bundle", async () => {
    const bundle = join(cli.work, "incident.tar");
    assert.equal((await cli.trace("export", runId, "-o", bundle)).code, 0);
    const r = await open(bundle, "--no-browser");
    assert.equal(r.code, 0, r.stderr);
    const path = r.stdout.trim();
    assert.equal(dirname(dirname(path)), tmpdir());
    assert.ok(existsSync(path));
    assertReport(path, runId);
    assert.match(r.stderr, /not opened: --no-browser/);
    rmSync(dirname(path), { recursive: true, force: true });
  });

  test("a run that does not exist: exit 3, nothing written", async () => {
    const r = await open("run_nope");
    assert.equal(r.code, 3);
    assert.equal(r.stdout, "");
  });
});

describe("trace open with a display", () => {
  test("hands the report to xdg-open and still prints its path", {
    skip: process.platform !== "linux" && "xdg-open is the Linux opener",
  }, async () => {
    // A stand-in xdg-open that notes what it was asked to open: no browser starts.
    const bin = join(cli.work, "bin");
    const asked = join(cli.work, "xdg-open-asked");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(asked)}\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const r = await runTrace(["--store", cli.store, "open", runId], {
      cwd: cli.work,
      env: { DISPLAY: ":99", WAYLAND_DISPLAY: "", PATH: `${bin}:${process.env.PATH ?? ""}` },
    });
    assert.equal(r.code, 0, r.stderr);
    const path = r.stdout.trim();
    assert.match(r.stderr, /opened in the browser \(xdg-open\)/);
    // Detached: the opener may finish after trace has exited.
    for (let i = 0; i < 50 && !existsSync(asked); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(readFileSync(asked, "utf8"), path);
  });
});
