// A real recording process for end-to-end tests of runs that are not sealed: one killed with
// SIGKILL mid-run (a crash before `trace recover`), or one still recording while the CLI reads it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What the child records: a tool call that never returns (`hang`), or tool calls forever (`busy`). */
export type RecordingMode = "hang" | "busy";

export interface RecordingProcess {
  runId: string;
  child: ChildProcess;
  /** Kills the child with SIGKILL and waits for it to exit. */
  kill(): Promise<void>;
}

const SCRIPT = (core: string, recorder: string, store: string, mode: RecordingMode) => `
import { Agent, ScriptedProvider, tool } from ${JSON.stringify(core)};
import { FlightRecorderExtension } from ${JSON.stringify(recorder)};
const mode = ${JSON.stringify(mode)};
const hang = tool({ name: "hang", description: "never returns", inputSchema: { type: "object" }, execute: () => new Promise(() => {}) });
const echo = tool({ name: "echo", description: "echoes", inputSchema: { type: "object" }, execute: async (input) => { await new Promise((r) => setTimeout(r, 5)); return input; } });
const steps = mode === "hang"
  ? [{ toolCalls: [{ id: "c1", name: "hang", input: {} }] }]
  : Array.from({ length: 100000 }, (_, i) => ({ toolCalls: [{ id: "c" + i, name: "echo", input: { i } }], usage: { inputTokens: 10, outputTokens: 2 } }));
const agent = new Agent({ name: mode === "hang" ? "doomed" : "busy", provider: new ScriptedProvider(steps), tools: [hang, echo], limits: { maxIterations: 200000 },
  extensions: [new FlightRecorderExtension({ dir: ${JSON.stringify(store)}, flushIntervalMs: 10 })] });
agent.run("go");
setInterval(() => {}, 1000);
`;

function segmentsHold(store: string, text: string, count: number): string | undefined {
  const runs = join(store, "runs");
  const dirs = existsSync(runs) ? readdirSync(runs) : [];
  if (dirs.length === 0) return undefined;
  const segments = join(runs, dirs[0]!, "segments");
  if (!existsSync(segments)) return undefined;
  const seen = readdirSync(segments)
    .filter((n) => n.endsWith(".ndjson"))
    .reduce((n, name) => n + readFileSync(join(segments, name), "utf8").split(text).length - 1, 0);
  return seen >= count ? dirs[0] : undefined;
}

/** Starts a recording child in `work` and resolves once `count` tool calls are on disk in a plain segment. */
export async function startRecording(
  work: string,
  store: string,
  mode: RecordingMode,
  count = 1,
): Promise<RecordingProcess> {
  const script = join(work, `record-${mode}.mjs`);
  writeFileSync(
    script,
    SCRIPT(import.meta.resolve("@harnessx/core"), import.meta.resolve("@harnessx/recorder"), store, mode),
  );
  const child = spawn(process.execPath, [script], { stdio: "ignore" });
  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  for (let i = 0; i < 400; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const runId = segmentsHold(store, '"kind":"tool_call_start"', count);
    if (runId) return { runId, child, kill };
  }
  await kill();
  throw new Error(`the ${mode} recording child never wrote ${count} tool call(s)`);
}
