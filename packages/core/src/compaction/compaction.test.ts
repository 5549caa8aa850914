// Compaction as an extension point: the first beforeCompact answer (install order) replaces the
// dropped history; SummarizingCompactor answers with a model's summary; failures fail closed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { MiddlewareError } from "../errors.js";
import { defineExtension, type ExtensionDefinition } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import type { CompactRequest } from "../middleware/middleware.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { tool } from "../tools/tool.js";
import { SummarizingCompactor } from "./summarizing-compactor.js";

const fetchDoc = tool({
  name: "fetch_doc",
  description: "fetch_doc returns a document.",
  execute: ({ n }) => `doc ${String(n)}: ${"lorem ipsum ".repeat(150)}`,
});

/** Six tool turns of ~1,800 characters each: over a 1,000-token budget by the third. */
function steps(): ScriptStep[] {
  return [
    ...Array.from({ length: 6 }, (_, i) => ({ toolCalls: [{ name: "fetch_doc", input: { n: i } }] })),
    { text: "done" },
  ];
}

function compacting(
  name: string,
  priority: number,
  answer: (request: CompactRequest) => Promise<{ summary: string } | undefined>,
): ExtensionDefinition {
  return { name, priority, install: (ctx) => void ctx.addMiddleware({ name: `${name}-mw`, beforeCompact: answer }) };
}

function agentWith(extensions: ExtensionDefinition[] | SummarizingCompactor[]) {
  const provider = new ScriptedProvider(steps(), { recordRequests: true });
  const agent = new Agent({
    context: { contextBudgetTokens: 1000 },
    limits: { repetition: false },
    provider,
    tools: [fetchDoc],
    extensions: extensions.map((e) => (e instanceof SummarizingCompactor ? e : defineExtension(e))),
  });
  return { agent, provider, seen: recordEvents(agent) };
}

const allText = (request: { messages: readonly { content: ReadonlyArray<{ type: string; text?: string }> }[] }) =>
  request.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : []))).join("\n");

describe("beforeCompact", () => {
  test("the first extension that answers, in priority order, supplies the summary that replaces the dropped history", async () => {
    const asked: string[] = [];
    const { agent, provider, seen } = agentWith([
      compacting("late", 30, async () => ({ summary: "never used" })),
      compacting(
        "passes",
        10,
        async (r) => void asked.push(`passes:${r.reason}:${r.dropping.length}:${r.budgetTokens}`),
      ),
      compacting("answers", 20, async (r) => ({
        summary: `Read docs ${r.dropping.filter((m) => m.role === "user").length} times; all lorem ipsum.`,
      })),
    ]);
    const result = await agent.run("read the docs");
    assert.equal(result.status, "completed", result.error?.message);
    const condensed = ofKind(seen, HookEvent.CONTEXT_CONDENSED);
    assert.ok(condensed.length >= 1);
    assert.deepEqual(
      [condensed[0].summarized, condensed[0].summarizedBy, condensed[0].reason],
      [true, "answers", "budget"],
    );
    assert.match(condensed[0].summary!, /^Read docs \d+ times; all lorem ipsum\.$/);
    assert.match(asked[0], /^passes:budget:\d+:1000$/);
    const after = provider.requests.find((r) => allText(r).includes("replaced by this summary from answers"));
    assert.ok(after, "a later request carries the summary in place of the dropped messages");
    assert.doesNotMatch(allText(after), /never used/);
  });

  test("without an answer the history is dropped and marked, summarized: false", async () => {
    const { agent, seen } = agentWith([compacting("passes", 10, async () => undefined)]);
    await agent.run("read the docs");
    const condensed = ofKind(seen, HookEvent.CONTEXT_CONDENSED)[0];
    assert.deepEqual([condensed.summarized, condensed.summarizedBy], [false, undefined]);
  });

  test("a beforeCompact that throws fails the run closed, naming its extension", async () => {
    const { agent } = agentWith([compacting("flaky", 10, async () => Promise.reject(new Error("summarizer down")))]);
    const result = await agent.run("read the docs");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof MiddlewareError);
    assert.match(result.error.message, /flaky-mw.*beforeCompact.*summarizer down/);
  });
});

describe("SummarizingCompactor", () => {
  test("asks its model for a summary of exactly what is dropped, and that summary takes its place", async () => {
    const summaries = Array.from({ length: 10 }, (_, i) => ({
      text: i === 0 ? "The agent fetched docs 0-2; each was filler." : `More filler (${i}).`,
    }));
    const summarizer = new ScriptedProvider(summaries, { recordRequests: true, model: "small-model" });
    const { agent, provider, seen } = agentWith([
      new SummarizingCompactor({ provider: summarizer, maxSummaryTokens: 300 }),
    ]);
    const result = await agent.run("read the docs");
    assert.equal(result.status, "completed", result.error?.message);
    const ask = summarizer.requests[0];
    assert.deepEqual([ask.model, ask.maxTokens, ask.tools.length], ["small-model", 300, 0]);
    assert.match(allText(ask), /assistant called fetch_doc\(\{"n":0\}\)\nresult of fetch_doc: doc 0: lorem/);
    const condensed = ofKind(seen, HookEvent.CONTEXT_CONDENSED)[0];
    assert.deepEqual(
      [condensed.summarized, condensed.summarizedBy, condensed.summary],
      [true, "summarizing-compactor", "The agent fetched docs 0-2; each was filler."],
    );
    assert.ok(provider.requests.some((r) => allText(r).includes("The agent fetched docs 0-2; each was filler.")));
  });
});
