import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool, type ScriptedReply, type ToolResult } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { ArtifactStore } from "@harnessx/artifacts";
import type { ResultSpillOptions } from "../options.js";
import { ResultSpillExtension } from "../result-spill-extension.js";

export interface SpillEvent {
  name: string;
  data: Record<string, unknown>;
}

/**
 * A real Agent on a ScriptedProvider with a `produce` tool whose output the test sets,
 * so each `call` is one genuine tool call through the middleware and `read_result`.
 */
export class SpillHarness {
  readonly agent: Agent;
  readonly extension: ResultSpillExtension;
  readonly events: SpillEvent[] = [];
  private readonly queue: ScriptedReply[] = [];
  private readonly results = new Map<string, ToolResult>();
  private output: () => unknown = () => "";
  private calls = 0;

  constructor(
    readonly store: ArtifactStore,
    options: Omit<ResultSpillOptions, "store"> = {},
    sessionId?: string,
  ) {
    this.extension = new ResultSpillExtension({ ...options, store });
    const next = (): ScriptedReply => this.queue.shift() ?? { text: "done" };
    const produce = tool({ name: "produce", description: "returns the test's output", execute: () => this.output() });
    // Each call takes two replies; enough for the scaled-up property runs of `npm run fuzz`.
    this.agent = new Agent({
      provider: new ScriptedProvider(new Array<() => ScriptedReply>(200_000).fill(next)),
      tools: [produce],
      extensions: [this.extension],
      ...(sessionId ? { sessionId } : {}),
    });
    this.agent.hooks.on(HookEvent.TOOL_CALL_END, (e) => {
      this.results.set(e.data.toolCall.id, e.data.result);
    });
    this.agent.hooks.on(HookEvent.CUSTOM, (e) => {
      this.events.push({ name: e.data.name, data: { ...e.data.data } });
    });
  }

  /** Runs one tool call and returns the result the model receives. */
  async call(name: string, input: Record<string, unknown>): Promise<ToolResult> {
    const id = `call_${++this.calls}`;
    this.queue.push({ toolCalls: [{ id, name, input }] }, { text: "done" });
    const run = await this.agent.run(`call ${name}`);
    if (run.status !== "completed") throw new Error(`run ${run.status}: ${String(run.error)}`);
    const result = this.results.get(id);
    if (!result) throw new Error(`no result for ${id}`);
    return result;
  }

  /** The `produce` tool returns `content` (or throws it as an error); the processed result comes back. */
  produce(content: string, options: { isError?: boolean } = {}): Promise<ToolResult> {
    this.output = () => {
      if (options.isError) throw new Error(content);
      return content;
    };
    return this.call("produce", {});
  }

  /** Spills `content` and returns the parsed envelope. */
  async spill(content: string): Promise<Record<string, unknown> & { resultId: string }> {
    const result = await this.produce(content);
    return JSON.parse(result.content) as Record<string, unknown> & { resultId: string };
  }

  read(input: Record<string, unknown>): Promise<ToolResult> {
    return this.call("read_result", input);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A fresh store in a temp dir, and its cleanup. */
export function tempStore(): { store: ArtifactStore; root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "harnessx-spill-test-"));
  return { store: new ArtifactStore(root), root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file under `dir` with its size: compared before and after to prove nothing changed. */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out.push(`${p.slice(dir.length)}:${s.size}:${s.mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}
