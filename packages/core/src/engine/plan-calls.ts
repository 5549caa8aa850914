import type { ToolCall, ToolCallBlock } from "../types/content.js";
import { deepFreeze } from "../util/deep-freeze.js";
import { authorize } from "./authorize.js";
import type { EngineServices } from "./services.js";
import type { PlannedCall, ToolPhaseContext } from "./tool-phase.js";

/** Runs `beforeToolExecution`, reads and validates input, and resolves permission for each call, in order. */
export async function planCalls(
  services: EngineServices,
  blocks: readonly ToolCallBlock[],
  ctx: ToolPhaseContext,
): Promise<PlannedCall[]> {
  const planned: PlannedCall[] = [];
  for (const block of blocks) {
    const asked: ToolCall = { id: block.id, name: block.name, input: block.input };
    const rewrittenBy: string[] = [];
    const call = services.middleware.has("beforeToolExecution")
      ? await services.middleware.beforeToolExecution(asked, rewrittenBy)
      : asked;
    const by = rewrittenBy.length > 0 ? { rewrittenBy } : {};
    if (block.parseError && call.input === block.input) {
      planned.push({
        call,
        refusal: {
          outcome: "invalid_input",
          message: `Error: could not read the arguments of "${block.name}": ${block.parseError}. Send the call again with a JSON object as arguments.`,
        },
        ...by,
      });
      continue;
    }
    const tool = services.tools.get(call.name);
    if (!tool) {
      const known = services.tools.names().join(", ") || "none";
      planned.push({
        call,
        refusal: {
          outcome: "unknown_tool",
          message: `Error: there is no tool named "${call.name}". Available tools: ${known}.`,
        },
        ...by,
      });
      continue;
    }
    const checked = tool.schema.validate(call.input);
    if (!checked.ok) {
      planned.push({
        call,
        tool,
        refusal: {
          outcome: "invalid_input",
          message: `Error: invalid input for "${call.name}": ${checked.problems.join("; ")}. Fix the input and call the tool again.`,
        },
        ...by,
      });
      continue;
    }
    // Frozen: policies, observers, middleware and the handler all get the call that is authorized here, and no other.
    const valid = deepFreeze({ ...call, input: checked.value });
    const verdict = authorize(services, valid, tool, "authorize", ctx.runId, ctx.parent);
    const permission = verdict instanceof Promise ? await verdict : verdict;
    if (permission.decision === "ask" && ctx.parent) {
      // A subagent's run ends inside its parent's tool call: there is no turn in which a human could approve.
      planned.push({
        call: valid,
        tool,
        permission,
        refusal: {
          outcome: "denied",
          message: `Error: "${call.name}" needs the user's approval (${permission.reason ?? "ask"}), which a subagent cannot wait for.`,
        },
        ...by,
      });
    } else if (permission.decision === "deny") {
      planned.push({
        call: valid,
        tool,
        permission,
        refusal: {
          outcome: "denied",
          message: `Error: permission denied for "${call.name}": ${permission.reason ?? "denied"}.`,
        },
        ...by,
      });
    } else {
      planned.push({ call: valid, tool, permission, needsApproval: permission.decision === "ask", ...by });
    }
  }
  return planned;
}
