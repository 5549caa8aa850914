// trace report on a long run (18k events): a small file that opens at once, density until zoomed
// in, only the rows in view drawn, payloads inflated on demand, in headless Chromium.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { Agent, ScriptedProvider, tool, type ScriptStep } from "@harnessx/core";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { cliWorkspace } from "@harnessx/cli/test-support";
import { launchChromium, noChromium } from "../support/chromium.js";

const cli = cliWorkspace();
let browser: Browser | undefined;

before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  cli.cleanup();
});

/** A long run: `iterations` tool calls returning ~2 KB each (a few texts repeated, as real results repeat), every 500th failing. */
async function recordLongRun(store: string, iterations: number): Promise<string> {
  const texts = Array.from(
    { length: 40 },
    (_, i) => `document ${i}: ${"retry backoff doubles after each failed attempt ".repeat(40)}`,
  );
  const search = tool({
    name: "search",
    description: "searches",
    inputSchema: { type: "object", properties: { i: { type: "number" } }, required: ["i"] },
    execute: ({ i }: { i: number }) => {
      if (i % 500 === 499) throw new Error(`shard ${i} timed out`);
      return texts[i % texts.length];
    },
  });
  const steps: ScriptStep[] = Array.from({ length: iterations }, (_, i) => ({
    toolCalls: [{ name: "search", input: { i } }],
  }));
  steps.push({ text: "done" });
  const agent = new Agent({
    limits: { maxIterations: iterations + 1 },
    context: { contextBudgetTokens: 20_000 },
    provider: new ScriptedProvider(steps),
    tools: [search],
    extensions: [new FlightRecorderExtension({ dir: store })],
  });
  try {
    return (await agent.run("search everything")).runId;
  } finally {
    await agent.close();
  }
}

describe("the report of a long run stays small and opens at once", () => {
  test("18k events: a few MB, density until zoomed in, only the rows in view exist, payloads inflated on demand", {
    skip: noChromium,
  }, async () => {
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
    await page.waitForFunction(
      (wrap) => Number(wrap?.querySelector("tr.row")?.getAttribute("data-seq")) > 10000,
      await page.locator("#events-wrap").elementHandle(),
    );
    const row = page.locator("#events tr.row", { hasText: "tool_call_end" }).nth(2);
    await row.click();
    const payload = page.locator("#details pre.payload");
    await payload.waitFor();
    assert.match((await payload.textContent()) ?? "", /"content": "document \d+: retry backoff doubles/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
