// Type-level tests: checked by `npm run typecheck` (tsc), never executed.
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "./events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { ToolResult } from "../types/content.js";

declare module "./custom-events.js" {
  interface CustomEvents {
    "typetest.cache_hit": { key: string; ageMs: number };
  }
}

const agent = new Agent({ provider: new ScriptedProvider([]) });

defineExtension({
  name: "typed-emitter",
  install(ctx) {
    void ctx.emit("typetest.cache_hit", { key: "k", ageMs: 3 });
    // @ts-expect-error the declared payload needs ageMs
    void ctx.emit("typetest.cache_hit", { key: "k" });
    // @ts-expect-error ageMs is a number
    void ctx.emit("typetest.cache_hit", { key: "k", ageMs: "3" });
    // @ts-expect-error an undeclared event cannot be emitted
    void ctx.emit("typetest.undeclared", {});
  },
});

agent.hooks.on(HookEvent.CUSTOM, (ctx) => {
  if (ctx.data.name === "typetest.cache_hit") {
    const age: number = ctx.data.data.ageMs;
    void age;
    // @ts-expect-error the payload has no `size`
    void ctx.data.data.size;
  }
});

agent.hooks.on(HookEvent.TOOL_CALL_END, (ctx) => {
  const result: ToolResult = ctx.data.result;
  const raw: unknown = ctx.data.rawResult;
  void result;
  void raw;
  // @ts-expect-error TOOL_CALL_END has no `response`
  void ctx.data.response;
});

agent.hooks.on(HookEvent.LLM_REQUEST, (ctx) => {
  const key: string = ctx.data.prefixKey;
  void key;
  // @ts-expect-error LLM_REQUEST has no `result`
  void ctx.data.result;
});

agent.hooks.on(HookEvent.RECOVERY, (ctx) => {
  // @ts-expect-error "not_a_reason" is not a RecoveryReason
  const bad: typeof ctx.data.reason = "not_a_reason";
  void bad;
});

agent.hooks.onAny((ctx) => {
  if (ctx.event === HookEvent.AGENT_END) {
    const status: string = ctx.data.result.status;
    void status;
  }
});
