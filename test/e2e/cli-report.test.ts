import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { statSync } from "node:fs";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { cliWorkspace, recordSupportRun } from "@harnessx/cli/test-support";

const cli = cliWorkspace();

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
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

describe("the report in headless Chromium", () => {
  test("shows the run's model and tool calls, payloads on click, and makes no network request", { skip: !hasChromium && `chromium not installed at ${CHROMIUM} (apt-get install chromium)` }, async () => {
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
  test("18k events: a few MB, density until zoomed in, only the rows in view exist, payloads inflated on demand", { skip: !hasChromium && `chromium not installed at ${CHROMIUM} (apt-get install chromium)` }, async () => {
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

    // An event deep in the run: scrolled to, its row drawn, its payload inflated with its shared text put back.
    await page.locator("#events-wrap").evaluate((el) => (el.scrollTop = 24 * 12_000));
    // Drawn for the new position (rows are replaced on the next frame), then one in view is clicked.
    await page.waitForFunction('Number(document.querySelector("#events tr.row")?.getAttribute("data-seq")) > 10000');
    const row = page.locator("#events tr.row", { hasText: "tool_call_end" }).nth(2);
    await row.click();
    const payload = page.locator("#details pre.payload");
    await payload.waitFor();
    assert.match((await payload.textContent()) ?? "", /"content": "document \d+: retry backoff doubles/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
