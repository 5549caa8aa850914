// The pages of docs/cli/ show `trace` command lines with the output they printed after the demo.
// This runs the demo once in a new folder, then every command line of those pages there, in the
// order of the index's table (the incident pages' later lines read files the earlier ones wrote),
// so a page whose commands stop working, or name a run the demo does not make, fails here.
//
// A command line is a `$ ` line of a fenced block. `npx trace` is run as the built CLI
// (`node cli/dist/bin.js`), and the whole line through bash, as a reader pasting it would: the few
// other lines (`cp`, `echo ... > rules.json`) prepare what the next commands read. Each must exit 0,
// or N when the line ends with `# exit N`; a line ending with `# not run here: <why>` is skipped
// (it needs a collector, a killed process, a project of one's own). When the page shows output
// under a line, the command must print something (stdout or stderr).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

const root = new URL("../..", import.meta.url).pathname;
const pagesDir = join(root, "docs", "cli");
const bin = join(root, "cli", "dist", "bin.js");
const demo = join(root, "examples", "dist", "demo.js");

interface DocCommand {
  page: string;
  /** 1-based line number in the page. */
  line: number;
  /** The command as written, without its trailing marker comment. */
  command: string;
  /** The exit code the page promises: 0 unless `# exit N`. */
  exit: number;
  /** Whether the page shows output under the command. */
  showsOutput: boolean;
  /** Why the command is not run here (`# not run here: <why>`), if so. */
  skip?: string;
}

const MARKER = /\s+#\s*(?:exit\s+(\d+)|not run here:\s*(.+?))\s*$/;

/** The `$ ` lines of a page's fenced blocks, with what the page says about each. */
function docCommands(page: string, text: string): DocCommand[] {
  const lines = text.split("\n");
  const commands: DocCommand[] = [];
  let fenced = false;
  lines.forEach((raw, index) => {
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (!fenced || !raw.startsWith("$ ")) return;
    const body = raw.slice(2);
    const marker = MARKER.exec(body);
    const next = lines[index + 1] ?? "";
    commands.push({
      page,
      line: index + 1,
      command: marker ? body.slice(0, marker.index) : body,
      exit: marker?.[1] ? Number(marker[1]) : 0,
      showsOutput: next.trim() !== "" && !next.startsWith("$ ") && !/^\s*```/.test(next),
      ...(marker?.[2] ? { skip: marker[2] } : {}),
    });
  });
  return commands;
}

/** The pages in the order to run them: the index, then the pages its table links, in that order. */
function pagesInOrder(): string[] {
  const index = readFileSync(join(pagesDir, "README.md"), "utf8");
  const linked = [...index.matchAll(/^\|\s*\[[^\]]+\]\(([\w-]+\.md)\)/gm)].map((m) => m[1]);
  return ["README.md", ...linked];
}

/** The shell line to run: `npx trace` is the built CLI; `open` only prints (no browser pops up during a test). */
function shellLine(command: string): string {
  const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)}`;
  return command.replace(/\bnpx trace open\b/g, `npx trace open --no-browser`).replace(/\bnpx trace\b/g, cli);
}

/** A run id written into a command: it would name a run that only existed when the page was written. */
const LITERAL_RUN_ID = /\brun_[0-9a-z]{8,}/;

describe("docs/cli pages: every command line runs on the demo's recording", () => {
  let dir = "";
  let home = "";
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    // The demo uses its scripted model and writes to .harnessx in its folder; nothing is exported live.
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    ANTHROPIC_API_KEY: "",
    HARNESSX_DIR: "",
    HARNESSX_STORE: "",
    LANGSMITH_API_KEY: "",
    OTEL_EXPORTER_OTLP_ENDPOINT: "",
    // No trust file or key of the user's is read or written (keys go to the temporary home), no colours, no browser.
    HARNESSX_HOME: home,
    HARNESSX_KEYS_DIR: "",
    NO_COLOR: "1",
    DISPLAY: "",
    WAYLAND_DISPLAY: "",
  });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "harnessx-cli-pages-"));
    home = mkdtempSync(join(tmpdir(), "harnessx-cli-pages-home-"));
    const run = spawnSync(process.execPath, [demo], { cwd: dir, env: env(), encoding: "utf8", timeout: 60_000 });
    assert.equal(run.status, 0, `the demo failed:\n${run.stdout}\n${run.stderr}`);
  });
  after(() => {
    for (const d of [dir, home]) if (d) rmSync(d, { recursive: true, force: true });
  });

  test("the index's table links every page of docs/cli/, once", () => {
    const pages = readdirSync(pagesDir)
      .filter((f) => f.endsWith(".md"))
      .sort();
    assert.deepEqual([...pagesInOrder()].sort(), pages);
  });

  test("the pages name runs by reference (last, last-<status>), not by an id of the day they were written", () => {
    const literal = pagesInOrder()
      .flatMap((page) => docCommands(page, readFileSync(join(pagesDir, page), "utf8")))
      .filter((c) => !c.skip && LITERAL_RUN_ID.test(c.command))
      .map((c) => `${c.page}:${c.line} ${c.command}`);
    assert.deepEqual(literal, []);
  });

  for (const page of pagesInOrder()) {
    const commands = docCommands(page, readFileSync(join(pagesDir, page), "utf8"));
    describe(page, () => {
      for (const c of commands) {
        const name = `line ${c.line}: $ ${c.command.length > 90 ? `${c.command.slice(0, 89)}…` : c.command}`;
        test(name, c.skip ? { skip: c.skip } : {}, () => {
          const run = spawnSync("bash", ["-c", shellLine(c.command)], {
            cwd: dir,
            env: env(),
            encoding: "utf8",
            timeout: 30_000,
          });
          const output = `${run.stdout}${run.stderr}`;
          assert.equal(
            run.status,
            c.exit,
            `${page}:${c.line} exited ${run.status}, the page says ${c.exit}\n${output}`,
          );
          if (c.showsOutput)
            assert.notEqual(output.trim(), "", `${page}:${c.line} printed nothing; the page shows output`);
        });
      }
    });
  }
});
