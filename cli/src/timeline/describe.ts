import type { RecordedEvent } from "@harnessx/recorder";
import { cut, formatDuration } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The tool an event belongs to, when it is a tool call's start or end. */
export function toolOf(event: RecordedEvent): string | undefined {
  return str(event.attrs?.toolName);
}

/** Who made a permission decision, when it was not the user's default: a rule, the tool, a policy of an extension, the user. */
function decidedBy(a: Record<string, unknown>): string | undefined {
  const source = str(a.permissionSource);
  if (!source) return undefined;
  const policy = /^policy:([^@]+)@(.+)$/.exec(source);
  return policy ? `by policy ${policy[1]} of extension ${policy[2]}` : `by ${source}`;
}

/** One short line of facts about an event, from its summary attributes (recorded text: control sequences removed). */
export function describeEvent(event: RecordedEvent): string {
  return terminalSafe(describeAttrs(event));
}

function describeAttrs(event: RecordedEvent): string {
  const a = event.attrs ?? {};
  switch (event.kind) {
    case "agent_start":
      return [
        str(a.agent) && `agent ${a.agent}`,
        str(a.model) && `model ${a.model}`,
        a.durable === true ? "durable" : undefined,
        a.restored === true ? "resumed from its journal" : a.resumed ? "resumed" : undefined,
      ]
        .filter(Boolean)
        .join(" ");
    case "agent_end":
      return [
        `status ${String(a.status ?? "?")}`,
        num(a.modelCalls) !== undefined && `${a.modelCalls} model calls`,
        num(a.inputTokens) !== undefined && `tokens in ${a.inputTokens} out ${a.outputTokens ?? 0}`,
        str(a.errorMessage) && `error: ${cut(classed(a), 100)}`,
      ]
        .filter(Boolean)
        .join(", ");
    case "llm_request":
      return [
        str(a.model),
        num(a.messageCount) !== undefined && `${a.messageCount} messages`,
        num(a.toolCount) !== undefined && `${a.toolCount} tools`,
      ]
        .filter(Boolean)
        .join(", ");
    case "llm_response":
      return [
        str(a.model),
        str(a.stopReason) && `stop ${a.stopReason}`,
        num(a.inputTokens) !== undefined && `tokens in ${a.inputTokens} out ${a.outputTokens ?? 0}`,
      ]
        .filter(Boolean)
        .join(", ");
    case "tool_call_start":
      return [
        str(a.toolName),
        str(a.toolCallId) && `(${a.toolCallId})`,
        str(a.permission) && `permission ${a.permission}`,
        decidedBy(a),
      ]
        .filter(Boolean)
        .join(" ");
    case "tool_call_end": {
      const failure = failureText(event);
      return (
        [str(a.toolName), str(a.outcome), a.outcome === "denied" ? decidedBy(a) : undefined].filter(Boolean).join(" ") +
        (failure ? `: ${cut(failure, 100)}` : "")
      );
    }
    case "retry":
      return [
        `${String(a.target ?? "?")} attempt ${String(a.attempt ?? "?")}`,
        num(a.delayMs) !== undefined && `wait ${formatDuration(Number(a.delayMs))}`,
        str(a.errorMessage) && cut(String(a.errorMessage), 100),
      ]
        .filter(Boolean)
        .join(", ");
    case "error":
      return [str(a.source) && `[${a.source}]`, str(a.errorMessage) ? classed(a) : (str(a.message) ?? "")]
        .filter(Boolean)
        .join(" ");
    case "custom":
      return [
        str(a.extension) && str(a.name) ? `${a.extension}.${a.name}` : undefined,
        num(a.bytes) !== undefined && `${a.bytes} bytes`,
      ]
        .filter(Boolean)
        .join(" ");
    case "skill_invoked":
      return a.found === false
        ? `skill ${String(a.skill)} not found`
        : [
            `skill ${String(a.skill)} loaded`,
            num(a.bodyChars) !== undefined && `(${a.bodyChars} chars)`,
            str(a.sourcePath) && `from ${a.sourcePath}`,
          ]
            .filter(Boolean)
            .join(" ");
    case "command_invoked": {
      const line = [`/${String(a.command)}`, str(a.args)].filter(Boolean).join(" ");
      if (a.found === false) return `${line}: unknown command`;
      const outcome =
        a.sent === false
          ? "acted, nothing sent to the model"
          : `sent a message of ${String(a.messageChars ?? "?")} chars`;
      return [
        line,
        `(${[str(a.extension) && `extension ${a.extension}`, str(a.source)].filter(Boolean).join(", ")})`,
        outcome,
      ].join(" ");
    }
    case "knowledge_accessed":
      return [
        `${String(a.tool)} ${String(a.bundle)}`,
        str(a.query) && `"${cut(String(a.query), 80)}": ${String(a.hits ?? 0)} hits`,
        str(a.path) && `${a.path} ${a.found === false ? "not found" : `(${String(a.bodyChars ?? "?")} chars)`}`,
      ]
        .filter(Boolean)
        .join(" ");
    case "sandbox_exec":
      return [
        `${String(a.engine)} statement ${String(a.statementSha256 ?? "").slice(0, 12)}`,
        a.refused === true
          ? `refused (${String(a.code ?? "?")})`
          : str(a.code)
            ? `failed (${a.code})`
            : `${String(a.rows ?? 0)} rows`,
        num(a.durationMs) !== undefined && formatDuration(Number(a.durationMs)),
      ]
        .filter(Boolean)
        .join(", ");
    case "message_appended":
      return [
        `${String(a.type)} from ${String(a.extension)}`,
        a.toModel === false ? "(kept from the model)" : undefined,
        str(a.text) && `: ${cut(String(a.text), 120)}`,
      ]
        .filter(Boolean)
        .join(" ")
        .replace(" :", ":");
    case "context_condensed":
      return [
        `dropped ${String(a.messagesDropped ?? "?")} messages`,
        a.summarized === true
          ? `summarized${str(a.summarizedBy) ? ` by ${a.summarizedBy}` : ""} (${String(a.summaryChars ?? "?")} chars)`
          : "marked, not summarized",
      ].join(", ");
    case "checkpoint":
      // One per committed phase of a durable run: the phase, and the status when it is not plain running.
      return [str(a.phase), a.status !== "running" ? str(a.status) : undefined].filter(Boolean).join(", ");
    case "recovery":
      return [str(a.reason), str(a.detail)].filter(Boolean).join(": ");
    case "recorder.dropped":
      return `${String(a.count ?? "?")} events dropped`;
    default: {
      const text = Object.keys(a).length ? JSON.stringify(a) : "";
      return cut(text, 120);
    }
  }
}

/** The duration an event closes, when it ends a span. */
export function durationOf(event: RecordedEvent): number | undefined {
  return num(event.attrs?.durationMs);
}

/** What a failed tool call said: its recorded error message, or the error result the model saw (inline payloads only). */
function failureText(event: RecordedEvent): string | undefined {
  const message = str(event.attrs?.errorMessage);
  if (message !== undefined) return message;
  const result = (event.payload as { result?: { isError?: unknown; content?: unknown } } | undefined)?.result;
  return result?.isError === true && typeof result.content === "string" && result.content !== ""
    ? result.content
    : undefined;
}

/** An error as people read it: its class, then its message (`ProviderError: model overloaded`). */
function classed(a: Record<string, unknown>): string {
  const name = typeof a.errorName === "string" && a.errorName !== "" ? a.errorName : undefined;
  const message = String(a.errorMessage ?? "");
  return name && !message.startsWith(`${name}:`) ? `${name}: ${message}` : message;
}
