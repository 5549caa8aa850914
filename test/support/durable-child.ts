// A process running one durable, recorded run of a fixed script, for the crash-at-every-boundary
// test: killed with SIGKILL at the Nth phase boundary, or run to its end, or resuming a run.
// Arguments: <journals> <store> <effects file> start <kill point: 0 for none, or "pay-effect">
//        or: <journals> <store> <effects file> resume <runId>
// Prints the run id as soon as the run starts, then (if it lives) a JSON line of its outcome.
import { appendFileSync, writeSync } from "node:fs";
import {
  Agent,
  FileDurableStore,
  ResumeError,
  ScriptedProvider,
  tool,
  type RunResult,
  type ScriptedReply,
} from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { FlightRecorderExtension } from "@harnessx/recorder";

const [journals, store, effects, mode, arg] = process.argv.slice(2);

export const SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: "s1", name: "search", input: { q: "invoices" } }] },
  {
    toolCalls: [
      { id: "p1", name: "pay", input: { amount: 5 } },
      { id: "s2", name: "search", input: { q: "receipts" } },
    ],
  },
  { toolCalls: [{ id: "d1", name: "delete", input: { path: "/tmp/old" } }] },
  { text: "all done" },
];

const kill = () => process.kill(process.pid, "SIGKILL");
const search = tool({
  name: "search",
  description: "searches",
  replayPolicy: "safe",
  execute: ({ q }) => `found 3 results for ${String(q)}`,
});
const pay = tool({
  name: "pay",
  description: "pays",
  replayPolicy: "never",
  execute: ({ amount }, ctx) => {
    appendFileSync(effects, `pay ${ctx.idempotencyKey}\n`);
    if (arg === "pay-effect") kill();
    return `paid ${String(amount)}`;
  },
});
const remove = tool({
  name: "delete",
  description: "deletes",
  permission: "ask",
  replayPolicy: "never",
  execute: ({ path }, ctx) => {
    appendFileSync(effects, `delete ${ctx.idempotencyKey}\n`);
    return `deleted ${String(path)}`;
  },
});

const agent = new Agent({
  name: "durable-crash",
  provider: new ScriptedProvider(SCRIPT, { stepBy: "conversation" }),
  tools: [search, pay, remove],
  durable: { store: new FileDurableStore(journals) },
  extensions: [new FlightRecorderExtension({ dir: store })],
});
agent.hooks.on(HookEvent.AGENT_START, (ctx) => void writeSync(1, `run ${ctx.data.runId}\n`));
// Every phase boundary, in order: each commit's CHECKPOINT, and the events between commits.
const killAt = mode === "start" && arg !== "pay-effect" ? Number(arg) : 0;
let boundaries = 0;
for (const event of [
  HookEvent.CHECKPOINT,
  HookEvent.LLM_RESPONSE,
  HookEvent.TOOL_CALL_START,
  HookEvent.TOOL_CALL_END,
]) {
  agent.hooks.on(event, () => {
    if (++boundaries === killAt) kill();
  });
}

let result: RunResult;
try {
  result = mode === "start" ? await agent.run("settle the invoices") : await agent.resume(arg);
} catch (error) {
  // Killed after its end was committed: the run is over, and resuming it says so.
  if (!(error instanceof ResumeError) || error.problem !== "already_ended") throw error;
  writeSync(1, `${JSON.stringify({ alreadyEnded: true })}\n`);
  process.exit(0);
}
while (result.status === "awaiting_approval")
  result = await agent.resume(Object.fromEntries(result.pending.map((p) => [p.id, "approve" as const])));
await agent.close();
writeSync(
  1,
  `${JSON.stringify({ status: result.status, text: result.text, boundaries, entries: agent.memory.entries })}\n`,
);
