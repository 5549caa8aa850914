// trace report on a recorded run: one self-contained HTML file whose error list links to the
// failed call, and the page in headless Chromium (the run's calls, payloads on click, failed calls
// drawn and found, no network request).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { cliWorkspace, recordSupportRun } from "@harnessx/cli/test-support";
import { launchChromium, noChromium } from "../support/chromium.js";

const cli = cliWorkspace();
const ARTIFACTS = fileURLToPath(new URL("../artifacts/", import.meta.url));

let runId: string;
let reportPath: string;
let browser: Browser | undefined;

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
  reportPath = join(cli.work, "report.html");
  const r = await cli.trace("report", runId, "-o", reportPath);
  assert.equal(r.code, 0, r.stderr);
  browser = await launchChromium();
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
function pageIndexOf(html: string): {
  names: string[];
  spans: Array<[number, number, number, number, number, number, string | null]>;
} {
  const packed = /<script id="trace-index" type="application\/octet-stream">([^<]*)<\/script>/.exec(html)![1];
  return JSON.parse(gunzipSync(Buffer.from(packed.trim(), "base64")).toString("utf8"));
}

describe("the report's error list links to the failed calls", () => {
  test("the failed tool call's entry gives its class and message and points at that call on the timeline", () => {
    const html = readFileSync(reportPath, "utf8");
    const entry =
      /<li class="error-entry" data-span="(\d+)"><a href="#timeline" class="error-link" data-goto-span="(\d+)"><span class="error-class">([^<]*)<\/span>: <span class="error-message">([^<]*)<\/span><\/a> <span class="mono meta">[^<]*execute_tool flaky<\/span>/.exec(
        html,
      );
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
  test("shows the run's model and tool calls, payloads on click, and makes no network request", {
    skip: noChromium,
  }, async () => {
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
    assert.deepEqual([...toolNames].sort(), [
      "execute_tool flaky",
      "execute_tool lookup_customer",
      "execute_tool search",
    ]);
    assert.equal(await page.locator('#timeline .span[data-kind="run"]').count(), 1);
    assert.ok((await spans.count()) === 7);
    // The two tool calls made in parallel sit side by side on separate lanes.
    const laneOf = (name: string) =>
      page
        .locator(`#timeline .span[data-kind="tool"]:text-is("execute_tool ${name}")`)
        .evaluate((el) => el.parentElement!.getAttribute("data-lane"));
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

    assert.equal(await page.locator("#tools tbody tr").count(), 3);
    assert.deepEqual(errors, [], "no script errors");
    assert.deepEqual(
      requests.filter((r) => r !== url),
      [],
      "no network request",
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#timeline .span[data-kind="tool"]:text-is("execute_tool lookup_customer")').click();
    await page.screenshot({ path: join(ARTIFACTS, "report.png"), fullPage: true });
    await page.close();
  });
});

describe("failed calls in headless Chromium", () => {
  test("a failed call is red and at least the minimum wide however short; its error entry scrolls to it, selects and highlights it", {
    skip: noChromium,
  }, async () => {
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
      return {
        width: el.getBoundingClientRect().width,
        minWidth: parseFloat(style.minWidth),
        background: style.backgroundColor,
      };
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
      return (
        call.left < box.right &&
        call.right > box.left &&
        call.top >= 0 &&
        call.bottom <= timeline.ownerDocument.defaultView!.innerHeight
      );
    });
    assert.ok(inView, "the call is scrolled into view");
    assert.equal(
      await page.locator("#details h2").first().textContent(),
      "execute_tool flaky",
      "its details are shown",
    );
    assert.match(
      (await page.locator("#details .run-error").textContent()) ?? "",
      /Error: upstream timed out after 5000 ms/,
    );
    // Selection survives the redraw a scroll makes.
    await page.locator("#timeline").evaluate((el) => el.dispatchEvent(new Event("scroll")));
    await page.waitForTimeout(50);
    assert.equal(await page.locator("#timeline .span.selected").count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
