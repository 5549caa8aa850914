import type { ContentBlock } from "@harnessx/core";
import type { AnyHookContext } from "@harnessx/core/extension";
import { encodeAttributes, scalarsOf } from "../format/event-codec.js";
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
      const { input, model, resumed } = event.data;
      // A durable run says so, and a run rebuilt from its journal (after its process died) says that too.
      const durable = event.data.durable ? { durable: true, ...(event.data.restored ? { restored: true } : {}) } : {};
      return {
        attrs: {
          agent: event.info.name,
          ...encodeAttributes(event.event, event.data),
          ...durable,
          sessionId: event.info.sessionId,
        },
        payload: { input: captureContent ? input : OMITTED, model, resumed },
      };
    }
    case "agent_end": {
      const { result } = event.data;
      return {
        attrs: encodeAttributes(event.event, event.data),
        payload: { result: captureContent ? result : { ...result, text: OMITTED } },
      };
    }
    case "llm_request":
      return requestContent(event.data, event.messagesFrom ?? 0, state, captureContent);
    case "llm_response": {
      const { response, provider, model, usage, cost, stopReason, durationMs } = event.data;
      return {
        attrs: { ...encodeAttributes(event.event, event.data), ...toolCallNames(response.content) },
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
      const { toolCall, permission } = event.data;
      return {
        attrs: encodeAttributes(event.event, event.data),
        payload: { toolCall: captureContent ? toolCall : { ...toolCall, input: OMITTED }, permission },
      };
    }
    case "tool_call_end": {
      const { toolCall, result, rawResult, durationMs, outcome, permission } = event.data;
      return {
        attrs: encodeAttributes(event.event, event.data),
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
    case "retry":
    case "error":
    case "custom":
      return { attrs: encodeAttributes(event.event, event.data), payload: event.data };
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
      return { attrs: encodeAttributes(event.event, event.data), payload: event.data };
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
    attrs: { ...encodeAttributes("llm_request", data), messagesFrom, prefixReused },
    payload: { request: recorded },
  };
}

/** The names of the tools a reply asked for, in order (what its cost is shared among, per tool); nothing for a reply without tool calls. */
function toolCallNames(content: readonly ContentBlock[]): { toolCalls?: string[] } {
  const names = content.filter((b) => b.type === "tool_call").map((b) => b.name);
  return names.length > 0 ? { toolCalls: names } : {};
}
