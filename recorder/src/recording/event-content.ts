import type { ContentBlock } from "@harnessx/core";
import type { AnyHookContext } from "@harnessx/core/extension";
import { cacheTokensOf } from "../format/cache-tokens.js";
import type { QueuedEvent } from "./message-log.js";

/** The kind-specific part of an event before redacting: summary attributes and the payload. */
export interface EventContent {
  attrs: Record<string, unknown>;
  payload: unknown;
}

/** Per-run memory the content builder needs to avoid repeating what a run already recorded. */
export interface ContentState {
  lastPrefixKey: string | undefined;
}

const OMITTED = "[content not captured]";

/**
 * What to record of each hook event. Raw model requests and replies, tool inputs and raw
 * results are kept whole unless `captureContent` is false; LLM_REQUEST stores only the messages
 * the run has not recorded yet (`messagesFrom`), and omits the system prompt and tool list when
 * `prefixKey` is unchanged (`prefixReused`): `RequestRebuilder` puts them back.
 */
export function eventContent(event: QueuedEvent, state: ContentState, captureContent: boolean): EventContent {
  switch (event.event) {
    case "agent_start": {
      const { input, model, resumed, attributes } = event.data;
      // A durable run says so, and a run rebuilt from its journal (after its process died) says that too.
      const durable = event.data.durable ? { durable: true, ...(event.data.restored ? { restored: true } : {}) } : {};
      return {
        attrs: {
          agent: event.info.name,
          model,
          resumed,
          ...durable,
          sessionId: event.info.sessionId,
          ...(attributes ? { spanAttributes: attributes } : {}),
        },
        payload: { input: captureContent ? input : OMITTED, model, resumed },
      };
    }
    case "agent_end": {
      const { result } = event.data;
      return {
        attrs: {
          status: result.status,
          modelCalls: result.modelCalls,
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          ...(result.usage.cost ? { cost: result.usage.cost } : {}),
          ...(result.error
            ? { errorName: result.error.name, errorCode: result.error.code, errorMessage: result.error.message }
            : {}),
        },
        payload: { result: captureContent ? result : { ...result, text: OMITTED } },
      };
    }
    case "llm_request":
      return requestContent(event.data, event.messagesFrom ?? 0, state, captureContent);
    case "llm_response": {
      const { response, provider, model, usage, cost, stopReason, durationMs } = event.data;
      return {
        attrs: {
          provider,
          model,
          stopReason,
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...cacheTokensOf({ ...usage }),
          durationMs,
          responseId: response.id,
          ...(cost ? { cost } : {}),
          ...toolCallNames(response.content),
        },
        payload: {
          response: captureContent ? response : { ...response, content: OMITTED },
          provider,
          model,
          usage,
          cost,
          stopReason,
          durationMs,
        },
      };
    }
    case "tool_call_start": {
      const { toolCall, permission, attributes, rewrittenBy } = event.data;
      return {
        attrs: {
          toolName: toolCall.name,
          toolCallId: toolCall.id,
          permission: permission.decision,
          permissionSource: permission.source,
          ...(attributes ? { spanAttributes: attributes } : {}),
          ...(rewrittenBy ? { rewrittenBy } : {}),
        },
        payload: { toolCall: captureContent ? toolCall : { ...toolCall, input: OMITTED }, permission },
      };
    }
    case "tool_call_end": {
      const { toolCall, result, rawResult, durationMs, outcome, permission, rewrittenBy } = event.data;
      return {
        attrs: {
          toolName: toolCall.name,
          toolCallId: toolCall.id,
          outcome,
          isError: result.isError,
          durationMs,
          ...(permission ? { permission: permission.decision, permissionSource: permission.source } : {}),
          ...(result.artifacts?.length ? { artifacts: result.artifacts } : {}),
          ...(rewrittenBy ? { rewrittenBy } : {}),
        },
        payload: captureContent
          ? { toolCall, result, rawResult, durationMs, outcome, permission }
          : {
              toolCall: { ...toolCall, input: OMITTED },
              result: { ...result, content: OMITTED },
              rawResult: OMITTED,
              durationMs,
              outcome,
              permission,
            },
      };
    }
    case "retry": {
      const { target, attempt, delayMs, error, toolCall } = event.data;
      return {
        attrs: {
          target,
          attempt,
          delayMs,
          errorName: error?.name,
          errorMessage: error?.message,
          ...(toolCall ? { toolCallId: toolCall.id, toolName: toolCall.name } : {}),
        },
        payload: event.data,
      };
    }
    case "error": {
      const { source, error, extension, dropped } = event.data;
      const code = (error as { code?: unknown } | undefined)?.code;
      return {
        attrs: {
          source,
          errorName: error?.name,
          errorMessage: error?.message,
          ...(code !== undefined ? { errorCode: code } : {}),
          ...(extension ? { extension } : {}),
          ...(event.data.event ? { event: event.data.event } : {}),
          ...(dropped !== undefined ? { dropped } : {}),
        },
        payload: event.data,
      };
    }
    case "custom": {
      const { extension, name, artifacts } = event.data;
      return { attrs: { extension, name, ...(artifacts?.length ? { artifacts } : {}) }, payload: event.data };
    }
    case "command_invoked": {
      // The arguments are what the user typed: content, like a run's input.
      const data = captureContent ? event.data : { ...event.data, args: OMITTED };
      return { attrs: scalarsOf(data), payload: data };
    }
    case "context_condensed": {
      // The summary is content (it retells the dropped conversation): the payload holds it, the attributes only its facts.
      const { summary, ...facts } = event.data;
      return {
        attrs: scalarsOf(facts),
        payload: summary === undefined ? facts : { ...facts, summary: captureContent ? summary : OMITTED },
      };
    }
    case "message_appended": {
      const data = captureContent
        ? event.data
        : { ...event.data, data: OMITTED, ...(event.data.text !== undefined ? { text: OMITTED } : {}) };
      return { attrs: scalarsOf(data), payload: data };
    }
    default:
      return { attrs: scalarsOf(event.data), payload: event.data };
  }
}

/** `data.request.messages` already holds only the messages from `messagesFrom` on (see `trimRequest`). */
function requestContent(
  data: Extract<AnyHookContext, { event: "llm_request" }>["data"],
  messagesFrom: number,
  state: ContentState,
  captureContent: boolean,
): EventContent {
  const { request, prefixKey } = data;
  const prefixReused = state.lastPrefixKey === prefixKey && messagesFrom > 0;
  state.lastPrefixKey = prefixKey;
  const { system, tools, messages, ...rest } = request;
  const recorded: Record<string, unknown> = { ...rest, messages: captureContent ? messages : OMITTED };
  if (!prefixReused) {
    recorded.system = captureContent ? system : OMITTED;
    recorded.tools = tools;
  }
  return {
    attrs: {
      model: data.model,
      maxTokens: data.maxTokens,
      temperature: data.temperature,
      stream: data.stream,
      messageCount: data.messageCount,
      toolCount: data.toolCount,
      prefixKey,
      messagesFrom,
      prefixReused,
    },
    payload: { request: recorded },
  };
}

/** The scalar members of an event's data; fromEntries keeps a `__proto__` member as one. */
function scalarsOf(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== "object") return {};
  return Object.fromEntries(
    Object.entries(data).filter(
      ([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value),
    ),
  );
}

/** The names of the tools a reply asked for, in order (what its cost is shared among, per tool); nothing for a reply without tool calls. */
function toolCallNames(content: readonly ContentBlock[]): { toolCalls?: string[] } {
  const names = content.filter((b) => b.type === "tool_call").map((b) => b.name);
  return names.length > 0 ? { toolCalls: names } : {};
}
