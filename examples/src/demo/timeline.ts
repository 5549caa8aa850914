import { HookEvent, type Agent, type AnyHookContext } from "harnessx";

/** Prints one line per interesting hook event, with the time since the run started. */
export function printTimeline(agent: Agent, write: (line: string) => void): void {
  let start = 0;
  const at = (ctx: AnyHookContext) => `${String(Math.round(ctx.timestamp - start)).padStart(5)} ms`;
  agent.hooks.onAny((ctx) => {
    if (ctx.event === HookEvent.AGENT_START) start = ctx.timestamp;
    const line = describe(ctx);
    if (line) write(`${at(ctx)}  ${line}`);
  });
}

function describe(ctx: AnyHookContext): string | undefined {
  switch (ctx.event) {
    case HookEvent.AGENT_START:
      return `run ${ctx.data.runId} started on ${ctx.data.model}`;
    case HookEvent.LLM_RESPONSE: {
      const calls = ctx.data.response.content
        .filter((b) => b.type === "tool_call")
        .map((b) => (b.type === "tool_call" ? b.name : ""));
      return `model replied (${ctx.data.stopReason}, ${ctx.data.usage.inputTokens}+${ctx.data.usage.outputTokens} tokens, ${Math.round(ctx.data.durationMs)} ms)${calls.length ? `: calls ${calls.join(", ")}` : ""}`;
    }
    case HookEvent.TOOL_CALL_START:
      return `  tool ${ctx.data.toolCall.name} started`;
    case HookEvent.TOOL_CALL_END: {
      const { toolCall, result, durationMs, outcome } = ctx.data;
      const text = result.content.replace(/\s+/g, " ");
      const preview = text.length > 90 ? `${text.slice(0, 90)}…` : text;
      return `  tool ${toolCall.name} ${result.isError ? "FAILED" : "ok"} (${outcome}, ${Math.round(durationMs)} ms): ${preview}`;
    }
    case HookEvent.COMMAND_INVOKED:
      return `command /${ctx.data.command} (${ctx.data.source ?? ctx.data.extension ?? "unknown"}) became a ${ctx.data.messageChars}-character message`;
    case HookEvent.SKILL_INVOKED:
      return `  skill ${ctx.data.skill} loaded (${ctx.data.bodyChars} characters)`;
    case HookEvent.RETRY:
      return `  retry ${ctx.data.target} after ${ctx.data.delayMs} ms: ${ctx.data.error.message}`;
    case HookEvent.RECOVERY:
      return `  recovery: ${ctx.data.reason}`;
    case HookEvent.CUSTOM:
      return `  ${ctx.data.extension}.${ctx.data.name} ${JSON.stringify(ctx.data.data)}`;
    case HookEvent.ERROR:
      return `  error (${ctx.data.source}): ${ctx.data.error.message}`;
    case HookEvent.AGENT_END:
      return `run ended: ${ctx.data.result.status}`;
    default:
      return undefined;
  }
}
