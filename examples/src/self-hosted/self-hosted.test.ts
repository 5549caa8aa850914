// The self-hosting test: permission confirmation, dangerous-command interception, custom
// compaction, automatic checkpoints and a status line, each an extension on the public API, run
// together on one agent with a real bash tool.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  Agent,
  HookEvent,
  ScriptedProvider,
  tool,
  type CheckpointData,
  type ContextCondensedData,
  type ScriptStep,
  type ToolCallEndData,
} from "harnessx";
import {
  bashTool,
  checkpoints,
  dangerousCommandGuard,
  permissionConfirmation,
  statusLine,
  toolLedgerCompaction,
} from "./index.js";

test("five product features as extensions, together on one agent", async () => {
  const root = mkdtempSync(join(tmpdir(), "hx-self-hosted-"));
  try {
    const work = join(root, "work");
    const precious = join(work, "precious");
    mkdirSync(precious, { recursive: true });
    writeFileSync(join(precious, "data.txt"), "keep me\n");
    const writeFile = tool({
      name: "write_file",
      description: "write_file writes text to a file in the project.",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, text: { type: "string" } },
        required: ["path", "text"],
      },
      writes: ({ path }) => [join(work, String(path))],
      execute: ({ path, text }) => {
        writeFileSync(join(work, String(path)), String(text));
        return "written";
      },
    });
    const usage = { inputTokens: 1_000, outputTokens: 50 };
    const steps: ScriptStep[] = [
      { toolCalls: [{ name: "bash", input: { command: "echo hello from bash" } }], usage },
      { toolCalls: [{ name: "bash", input: { command: `rm -rf ${precious}` } }], usage },
      { toolCalls: [{ name: "write_file", input: { path: "notes.md", text: "# notes" } }], usage },
      ...Array.from(
        { length: 5 },
        (_, i): ScriptStep => ({
          toolCalls: [{ name: "bash", input: { command: `printf '%.0s-' $(seq 1 1200); echo ${i}` } }],
          usage,
        }),
      ),
      { text: "All done.", usage },
    ];
    const saved = checkpoints(join(root, "checkpoints"));
    const agent = new Agent({
      context: { contextBudgetTokens: 1_500 },
      limits: { repetition: false },
      pricing: { prices: { "scripted-model": { inputPerMTok: 3, outputPerMTok: 15 } } },
      provider: new ScriptedProvider(steps),
      tools: [bashTool(work), writeFile],
      extensions: [
        permissionConfirmation(["write_file"]),
        dangerousCommandGuard(),
        toolLedgerCompaction(),
        saved.extension,
        statusLine(),
      ],
    });
    const ends: ToolCallEndData[] = [];
    const condensed: ContextCondensedData[] = [];
    const checkpointEvents: CheckpointData[] = [];
    agent.hooks.on(HookEvent.TOOL_CALL_END, (ctx) => void ends.push(ctx.data));
    agent.hooks.on(HookEvent.CONTEXT_CONDENSED, (ctx) => void condensed.push(ctx.data));
    agent.hooks.on(HookEvent.CHECKPOINT, (ctx) => void checkpointEvents.push(ctx.data));

    // Permission confirmation: the write waits for the user.
    const paused = await agent.run("tidy up the project");
    assert.equal(paused.status, "awaiting_approval");
    assert.deepEqual(
      paused.pending.map((p) => [p.toolCall.name, p.reason]),
      [["write_file", "write_file changes files: confirm it first"]],
    );
    assert.equal(existsSync(join(work, "notes.md")), false);
    const result = await agent.resume({ [paused.pending[0].id]: "approve" });
    assert.equal(result.status, "completed", result.error?.message);
    assert.equal(readFileSync(join(work, "notes.md"), "utf8"), "# notes");

    // Dangerous-command interception: denied before it ran.
    assert.match(ends[0].result.content, /^exit 0\nhello from bash/);
    assert.deepEqual(
      [ends[1].outcome, ends[1].permission?.source],
      ["denied", "policy:no-dangerous-commands@command-guard"],
    );
    assert.match(ends[1].result.content, /blocked: a recursive forced delete/);
    assert.ok(existsSync(join(precious, "data.txt")), "the guarded command never ran");

    // Custom compaction: the ledger replaced the dropped history.
    assert.ok(condensed.length > 0, "the history was compacted");
    assert.deepEqual([condensed[0].summarized, condensed[0].summarizedBy], [true, "tool-ledger"]);
    assert.match(
      condensed[0].summary!,
      /^Tool calls made so far \(outputs dropped\):\n- bash \{"command":"echo hello from bash"\}\n- bash \{"command":"rm -rf .*"\} \(failed\)/,
    );

    // The status line.
    assert.deepEqual(agent.status(), [
      {
        extension: "status-line",
        text: `${steps.length} model calls · ${(steps.length * 1000).toLocaleString("en-US")} in + ${steps.length * 50} out tokens · $${((steps.length * 1000 * 3 + steps.length * 50 * 15) / 1e6).toFixed(4)}`,
      },
    ]);

    // Checkpoints: one at the turn's start, one at shutdown; saved, redacted, reported.
    await agent.close();
    // (The engine's own CHECKPOINT of the approval wait is there too, with its status.)
    const ours = checkpointEvents.filter((c) => c.status === "saved");
    assert.deepEqual(
      ours.map((c) => c.phase),
      ["turn_start", "session_shutdown"],
    );
    assert.equal(ours[0].runId, paused.runId);
    assert.equal(saved.files.length, 2);
    const last = JSON.parse(readFileSync(saved.files[1], "utf8"));
    assert.equal(last.format, "harnessx.session");
    assert.ok(last.messages.length > 2, "the shutdown checkpoint holds the conversation");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
