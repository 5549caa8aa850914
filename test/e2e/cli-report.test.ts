import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { statSync } from "node:fs";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { cliWorkspace, recordSupportRun } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

/** The Chromium the browser tests drive: CHROMIUM_PATH, else `chromium` on PATH (as `command -v chromium` finds it), else /usr/bin/chromium. */
function findChromium(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, "chromium"), constants.X_OK);
      return join(dir, "chromium");
    } catch {
      // not here
    }
  }
  return "/usr/bin/chromium";
}
const CHROMIUM = findChromium();
const hasChromium = existsSync(CHROMIUM);
const noChromium = !hasChromium && `chromium not found (CHROMIUM_PATH, PATH, ${CHROMIUM}): apt-get install chromium, or set CHROMIUM_PATH`;
const ARTIFACTS = fileURLToPath(new URL("../artifacts/", import.meta.url));

let runId: string;
let reportPath: string;
let browser: Browser | undefined;

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
  reportPath = join(cli.work, "report.html");
  const r = await cli.trace("report", runId, "-o", reportPath);
  assert.equal(r.code, 0, r.stderr);
  if (hasChromium) {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
  }
});
after(async () => {
  await browser?.close();
  cli.cleanup();
});

describe("trace report writes one self-contained HTML file", () => {
  test("no external scripts, stylesheets, fonts or images; a CSP that forbids network loads", () => {
    const html = readFileSync(reportPath, "utf8");
    assert.doesNotMatch(html, /<script[^>]+src=/i);
    assert.doesNotMatch(html, /<link[^>]+href=/i);
    assert.doesNotMatch(html, /@import|url\(\s*['"]?https?:/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.ok(html.includes(runId));
  });
  test("--json reports the file, and an existing file is not replaced without --force", async () => {
    const again = await cli.trace("report", runId, "-o", reportPath);
    assert.equal(again.code, 2);
    const forced = await cli.trace("--json", "report", runId, "-o", reportPath, "--force");
    assert.equal(forced.code, 0, forced.stderr);
    const out = JSON.parse(forced.stdout) as { path: string; events: number; spans: number };
    assert.equal(out.path, reportPath);
    assert.equal(out.events, 20);
    assert.equal(out.spans, 7);
  });
});

/** The page's packed index (gzip, base64), as its script inflates it. */
function pageIndexOf(html: string): { names: string[]; spans: Array<[number, number, number, number, number, number, string | null]> } {
  const packed = /<script id="trace-index" type="application\/octet-stream">([^<]*)<\/script>/.exec(html)![1];
  return JSON.parse(gunzipSync(Buffer.from(packed.trim(), "base64")).toString("utf8"));
}

describe("the report's error list links to the failed calls", () => {
  test("the failed tool call's entry gives its class and message and points at that call on the timeline", () => {
    const html = readFileSync(reportPath, "utf8");
    const entry = /<li class="error-entry" data-span="(\d+)"><a href="#timeline" class="error-link" data-goto-span="(\d+)"><span class="error-class">([^<]*)<\/span>: <span class="error-message">([^<]*)<\/span><\/a> <span class="mono meta">[^<]*execute_tool flaky<\/span>/.exec(html);
    assert.ok(entry, "an entry for the flaky call");
    assert.deepEqual(entry.slice(2, 5), [entry[1], "Error", "upstream timed out after 5000 ms"]);
    const index = pageIndexOf(html);
    const span = index.spans[Number(entry[2])];
    assert.equal(index.names[span[0]], "execute_tool flaky", "the link names the failed call's place on the timeline");
    assert.equal(span[5] & 2, 2, "drawn as failed");
    assert.equal(span[6], "Error: upstream timed out after 5000 ms");
  });
});

describe("the report in headless Chromium", () => {
  test("shows the run's model and tool calls, payloads on click, and makes no network request", { skip: noChromium }, async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const url = pathToFileURL(reportPath).href;
    await page.goto(url);
    await page.locator("body[data-ready=true]").waitFor();

    const spans = page.locator("#timeline .span");
    assert.equal(await page.locator('#timeline .span[data-kind="model"]').count(), 3, "three model calls");
    const toolNames = await page.locator('#timeline .span[data-kind="tool"]').allTextContents();
    assert.deepEqual([...toolNames].sort(), ["execute_tool flaky", "execute_tool lookup_customer", "execute_tool search"]);
    assert.equal(await page.locator('#timeline .span[data-kind="run"]').count(), 1);
    assert.ok((await spans.count()) === 7);
    // The two tool calls made in parallel sit side by side on separate lanes.
    const laneOf = (name: string) => page.locator(`#timeline .span[data-kind="tool"]:text-is("execute_tool ${name}")`).evaluate((el) => el.parentElement!.getAttribute("data-lane"));
    assert.notEqual(await laneOf("search"), await laneOf("lookup_customer"));
    assert.equal(await page.locator("#timeline .span.error").count(), 1, "the failing tool is marked");

    // Clicking a tool call shows its payloads (inflated on demand).
    await page.locator('#timeline .span[data-kind="tool"]:text-is("execute_tool lookup_customer")').click();
    await page.locator("#details pre.payload", { hasText: "CUST-4711" }).first().waitFor();
    assert.match((await page.locator("#details").textContent()) ?? "", /tool_call_end/);

    // Clicking an event row shows that event's payload.
    await page.locator("#events tbody tr", { hasText: "llm_response" }).first().click();
    const payload = await page.locator("#details pre.payload").textContent();
    assert.match(payload ?? "", /"stopReason": "tool_use"/);

    // Zoom widens the timeline.
    const before = await page.locator("#timeline-inner").evaluate((el) => el.getBoundingClientRect().width);
    await page.locator("#zoom-in").click();
    await page.locator("#zoom-in").click();
    const zoomed = await page.locator("#timeline-inner").evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(zoomed > before * 3, `zoomed ${zoomed} vs ${before}`);
    await page.locator("#zoom-fit").click();

    assert.equal((await page.locator("#tools tbody tr").count()), 3);
    assert.deepEqual(errors, [], "no script errors");
    assert.deepEqual(requests.filter((r) => r !== url), [], "no network request");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#timeline .span[data-kind="tool"]:text-is("execute_tool lookup_customer")').click();
    await page.screenshot({ path: join(ARTIFACTS, "report.png"), fullPage: true });
    await page.close();
  });
});

describe("failed calls in headless Chromium", () => {
  test("a failed call is red and at least the minimum wide however short; its error entry scrolls to it, selects and highlights it", { skip: noChromium }, async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(pathToFileURL(reportPath).href);
    await page.locator("body[data-ready=true]").waitFor();
    const failed = page.locator('#timeline .span.error[data-kind="tool"]');
    assert.equal(await failed.count(), 1);
    // The flaky tool throws at once: a fraction of a millisecond in a run of hundreds.
    const drawn = await failed.evaluate((el) => {
      const style = el.ownerDocument.defaultView!.getComputedStyle(el);
      return { width: el.getBoundingClientRect().width, minWidth: parseFloat(style.minWidth), background: style.backgroundColor };
    });
    assert.ok(drawn.minWidth >= 6, `a minimum of ${drawn.minWidth}px`);
    assert.ok(drawn.width >= drawn.minWidth, `drawn ${drawn.width}px wide, the minimum is ${drawn.minWidth}px`);
    assert.equal(drawn.background, "rgb(214, 69, 69)", "red");

    // Zoomed in and scrolled away from it, the call is not in view; its error entry brings it back.
    for (let i = 0; i < 6; i++) await page.locator("#zoom-in").click();
    await page.locator("#timeline").evaluate((el) => (el.scrollLeft = 0));
    const flakyButton = page.locator('#timeline .span:text-is("execute_tool flaky")');
    await failed.waitFor({ state: "detached" });
    await page.locator("#errors .error-link", { hasText: "upstream timed out after 5000 ms" }).click();
    await flakyButton.waitFor();
    assert.match((await flakyButton.getAttribute("class")) ?? "", /\bselected\b/, "selected");
    assert.match((await flakyButton.getAttribute("class")) ?? "", /\bflash\b/, "highlighted");
    // In view: across the timeline's visible part (it may be wider than the view when zoomed in), and on screen.
    const inView = await page.locator("#timeline").evaluate((timeline) => {
      const call = timeline.querySelector(".span.selected")!.getBoundingClientRect();
      const box = timeline.getBoundingClientRect();
      return call.left < box.right && call.right > box.left && call.top >= 0 && call.bottom <= timeline.ownerDocument.defaultView!.innerHeight;
    });
    assert.ok(inView, "the call is scrolled into view");
    assert.equal(await page.locator("#details h2").first().textContent(), "execute_tool flaky", "its details are shown");
    assert.match((await page.locator("#details .run-error").textContent()) ?? "", /Error: upstream timed out after 5000 ms/);
    // Selection survives the redraw a scroll makes.
    await page.locator("#timeline").evaluate((el) => el.dispatchEvent(new Event("scroll")));
    await page.waitForTimeout(50);
    assert.equal(await page.locator("#timeline .span.selected").count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

/** A long run: `iterations` tool calls returning ~2 KB each (a few texts repeated, as real results repeat), every 500th failing. */
async function recordLongRun(store: string, iterations: number): Promise<string> {
  const texts = Array.from({ length: 40 }, (_, i) => `document ${i}: ${"retry backoff doubles after each failed attempt ".repeat(40)}`);
  const search = tool({
    name: "search",
    description: "searches",
    inputSchema: { type: "object", properties: { i: { type: "number" } }, required: ["i"] },
    execute: ({ i }: { i: number }) => {
      if (i % 500 === 499) throw new Error(`shard ${i} timed out`);
      return texts[i % texts.length];
    },
  });
  const steps: ScriptStep[] = Array.from({ length: iterations }, (_, i) => ({ toolCalls: [{ name: "search", input: { i } }] }));
  steps.push({ text: "done" });
  const agent = new Agent({ provider: new ScriptedProvider(steps), tools: [search], maxIterations: iterations + 1, contextBudgetTokens: 20_000, extensions: [new FlightRecorderExtension({ dir: store })] });
  try {
    return (await agent.run("search everything")).runId;
  } finally {
    await agent.close();
  }
}

describe("the report of a long run stays small and opens at once", () => {
  test("18k events: a few MB, density until zoomed in, only the rows in view exist, payloads inflated on demand", { skip: noChromium }, async () => {
    const longRun = await recordLongRun(cli.store, 3_000);
    const path = join(cli.work, "long.html");
    const r = await cli.trace("--json", "report", longRun, "-o", path);
    assert.equal(r.code, 0, r.stderr);
    const { events } = JSON.parse(r.stdout) as { events: number };
    assert.ok(events > 18_000, `${events} events`);
    const bytes = statSync(path).size;
    assert.ok(bytes < 1_500_000, `the report is ${bytes} bytes; its payloads are packed and deduplicated`);

    const page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(pathToFileURL(path).href);
    await page.locator("body[data-ready=true]").waitFor();
    assert.ok((await page.locator("#timeline .bucket").count()) > 10, "too many calls to draw one by one: density");
    assert.equal(await page.locator("#timeline .span").count(), 0);
    assert.ok((await page.locator("#events tr.row").count()) < 100, "only the rows in view are in the page");

    await page.locator("#timeline .bucket.error").first().click();
    assert.ok((await page.locator("#timeline .span").count()) > 0, "a click on the density zooms in to the calls");
    assert.ok((await page.locator("#timeline .span.error").count()) > 0, "and the failed call is among them");

    // From the fitted view (density only), an error entry zooms in to its call and selects it.
    await page.locator("#zoom-fit").click();
    assert.equal(await page.locator("#timeline .span").count(), 0);
    await page.locator("#errors .error-link", { hasText: "shard 2499 timed out" }).click();
    const selected = page.locator("#timeline .span.selected");
    await selected.waitFor();
    assert.match((await selected.getAttribute("class")) ?? "", /\berror\b/);
    assert.equal(await page.locator("#details h2").first().textContent(), "execute_tool search");
    assert.match((await page.locator("#details .run-error").textContent()) ?? "", /shard 2499 timed out/);

    // An event deep in the run: scrolled to, its row drawn, its payload inflated with its shared text put back.
    await page.locator("#events-wrap").evaluate((el) => (el.scrollTop = 24 * 12_000));
    // Drawn for the new position (rows are replaced on the next frame), then one in view is clicked.
    // A function, not a string: the page's CSP forbids eval, which a string predicate needs.
    await page.waitForFunction((wrap) => Number(wrap?.querySelector("tr.row")?.getAttribute("data-seq")) > 10000, await page.locator("#events-wrap").elementHandle());
    const row = page.locator("#events tr.row", { hasText: "tool_call_end" }).nth(2);
    await row.click();
    const payload = page.locator("#details pre.payload");
    await payload.waitFor();
    assert.match((await payload.textContent()) ?? "", /"content": "document \d+: retry backoff doubles/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
