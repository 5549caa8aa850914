import type { SpanRole } from "@harnessx/core/tracing";
import { isRecord } from "./request-rebuilder.js";

/** A place in a hook event's data, as a path of member names (`["usage", "inputTokens"]`). */
type DataPath = readonly string[];

/**
 * One attribute of an event line: the hook data it is written from (the first path) and put back
 * to when read (every path), kept only when `keep` accepts it, both ways.
 */
interface AttributeField {
  readonly name: string;
  readonly paths: readonly DataPath[];
  readonly keep?: (value: unknown) => boolean;
}

/** What the store keeps of one event kind in its line's attributes, and the hook data they stand for. */
interface KindCodec {
  /** The span the kind opens or closes, whose ids its line carries; absent for point events. */
  readonly role?: SpanRole;
  /** The attributes read back as hook data, in the order they are written. */
  readonly fields: readonly AttributeField[];
  /** The data a reader of attributes alone starts from: what the content left out leaves empty. */
  readonly base?: (runId: string) => Record<string, unknown>;
  /** Values put back where their parent object was read but the value was not (an error's message). */
  readonly fallbacks?: readonly (readonly [DataPath, unknown])[];
}

const isCount = (value: unknown): boolean => typeof value === "number" && Number.isFinite(value);
const isNumber = (value: unknown): boolean => typeof value === "number";
const isBoolean = (value: unknown): boolean => typeof value === "boolean";
const isNonEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

const field = (
  name: string,
  path: DataPath | readonly DataPath[],
  keep?: (value: unknown) => boolean,
): AttributeField => ({
  name,
  paths: typeof path[0] === "string" ? [path as DataPath] : (path as readonly DataPath[]),
  ...(keep ? { keep } : {}),
});
/** An attribute written from, and read back to, the member of the same name. */
const same = (name: string, keep?: (value: unknown) => boolean): AttributeField => field(name, [name], keep);

const PERMISSION = [
  field("permission", ["permission", "decision"]),
  field("permissionSource", ["permission", "source"]),
];
const ERROR_MESSAGE_FALLBACK = [[["error", "message"], ""]] as const;

/**
 * The one codec of recorded attributes: per hook event kind, the span role its line carries and
 * the facts its attributes hold. The recorder writes attributes with `encodeAttributes`; every
 * reader that needs a span without its payloads (the `spans` table, the span cache) reads them
 * back with `decodeAttributes`, so a fact written is a fact read, in one place. Kinds not listed
 * keep their data's scalar members, and read back as those.
 */
const CODECS: Readonly<Record<string, KindCodec>> = {
  agent_start: {
    role: "agent",
    fields: [
      same("model"),
      same("resumed", isBoolean),
      field("spanAttributes", ["attributes"], isRecord),
      same("metadata", isRecord),
      same("tags", isNonEmptyList),
    ],
    base: (runId) => ({ runId, input: "", resumed: false }),
  },
  agent_end: {
    role: "agent",
    fields: [
      field("status", ["result", "status"]),
      field("modelCalls", ["result", "modelCalls"], isNumber),
      field("inputTokens", ["result", "usage", "inputTokens"], isNumber),
      field("outputTokens", ["result", "usage", "outputTokens"], isNumber),
      field("cacheReadTokens", ["result", "usage", "cacheReadTokens"], isCount),
      field("cacheWriteTokens", ["result", "usage", "cacheWriteTokens"], isCount),
      field("cost", ["result", "usage", "cost"], isRecord),
      field("errorName", ["result", "error", "name"]),
      field("errorCode", ["result", "error", "code"]),
      field("errorMessage", ["result", "error", "message"]),
    ],
    base: (runId) => ({
      result: { text: "", pending: [], runId, modelCalls: 0, usage: { inputTokens: 0, outputTokens: 0 } },
    }),
    fallbacks: [[["result", "error", "message"], ""]],
  },
  llm_request: {
    role: "chat",
    fields: [
      field("model", [["model"], ["request", "model"]]),
      field("maxTokens", [["maxTokens"], ["request", "maxTokens"]]),
      field("temperature", [["temperature"], ["request", "temperature"]]),
      field("stream", [["stream"], ["request", "stream"]]),
      same("messageCount"),
      same("toolCount"),
      same("prefixKey"),
    ],
  },
  llm_response: {
    role: "chat",
    fields: [
      same("provider"),
      same("model"),
      same("stopReason"),
      field("inputTokens", ["usage", "inputTokens"], isNumber),
      field("outputTokens", ["usage", "outputTokens"], isNumber),
      field("cacheReadTokens", ["usage", "cacheReadTokens"], isCount),
      field("cacheWriteTokens", ["usage", "cacheWriteTokens"], isCount),
      same("durationMs"),
      field("responseId", ["response", "id"]),
      same("cost", isRecord),
    ],
    base: () => ({ response: { content: [] }, usage: { inputTokens: 0, outputTokens: 0 } }),
  },
  tool_call_start: {
    role: "tool",
    fields: [
      field("toolName", ["toolCall", "name"]),
      field("toolCallId", ["toolCall", "id"]),
      ...PERMISSION,
      field("spanAttributes", ["attributes"], isRecord),
      same("rewrittenBy"),
    ],
    base: () => ({ toolCall: { input: {} } }),
  },
  tool_call_end: {
    role: "tool",
    fields: [
      field("toolName", [
        ["toolCall", "name"],
        ["result", "name"],
      ]),
      field("toolCallId", [
        ["toolCall", "id"],
        ["result", "toolCallId"],
      ]),
      same("outcome"),
      field("isError", ["result", "isError"], isBoolean),
      same("durationMs"),
      ...PERMISSION,
      field("artifacts", ["result", "artifacts"], isNonEmptyList),
      same("rewrittenBy"),
    ],
    base: () => ({ toolCall: { input: {} }, result: { content: "", isError: false } }),
  },
  retry: {
    fields: [
      same("target"),
      same("attempt"),
      same("delayMs"),
      field("errorName", ["error", "name"]),
      field("errorMessage", ["error", "message"]),
      field("toolCallId", ["toolCall", "id"]),
      field("toolName", ["toolCall", "name"]),
    ],
    base: () => ({ error: { message: "" } }),
    fallbacks: [[["toolCall", "input"], {}], ...ERROR_MESSAGE_FALLBACK],
  },
  error: {
    fields: [
      same("source"),
      field("errorName", ["error", "name"]),
      field("errorMessage", ["error", "message"]),
      field("errorCode", ["error", "code"]),
      same("extension"),
      same("event"),
      same("dropped"),
    ],
    base: () => ({ error: { message: "" } }),
  },
  custom: {
    fields: [same("extension"), same("name"), same("artifacts", isNonEmptyList)],
  },
};

/** The span role of a kind whose line carries its span's ids (a run's, a model call's or a tool call's start or end); undefined for point events. */
export function spanRoleOf(kind: string): SpanRole | undefined {
  return Object.hasOwn(CODECS, kind) ? CODECS[kind]?.role : undefined;
}

/** Whether the codec declares the kind's attributes (else they are its data's scalar members). */
export function hasDeclaredAttributes(kind: string): boolean {
  return Object.hasOwn(CODECS, kind);
}

/** The attributes a line of this kind carries for its hook data, in declared order (see `CODECS`). */
export function encodeAttributes(kind: string, data: unknown): Record<string, unknown> {
  const codec = Object.hasOwn(CODECS, kind) ? CODECS[kind] : undefined;
  if (!codec) return scalarsOf(data);
  const attrs: Record<string, unknown> = {};
  for (const { name, paths, keep } of codec.fields) {
    const value = valueAt(data, paths[0]!);
    if (value !== undefined && (!keep || keep(value))) attrs[name] = value;
  }
  return attrs;
}

/**
 * The hook data a line's attributes stand for (content left out): what `encodeAttributes` wrote,
 * put back at every place it came from. Undefined for a kind the codec does not declare.
 */
export function decodeAttributes(kind: string, runId: string, attrs: Readonly<Record<string, unknown>>): unknown {
  const codec = Object.hasOwn(CODECS, kind) ? CODECS[kind] : undefined;
  if (!codec) return undefined;
  const data = codec.base?.(runId) ?? {};
  for (const { name, paths, keep } of codec.fields) {
    if (!Object.hasOwn(attrs, name)) continue;
    const value = attrs[name];
    if (value === undefined || (keep && !keep(value))) continue;
    for (const path of paths) placeAt(data, path, value);
  }
  for (const [path, value] of codec.fallbacks ?? []) {
    const parent = valueAt(data, path.slice(0, -1));
    const key = path[path.length - 1]!;
    if (isRecord(parent) && parent[key] === undefined) parent[key] = value;
  }
  return data;
}

function valueAt(data: unknown, path: DataPath): unknown {
  let at = data;
  for (const key of path) {
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** Sets the value at the path, making the objects on the way (paths are the codec's own names, never a line's). */
function placeAt(data: Record<string, unknown>, path: DataPath, value: unknown): void {
  let at = data;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (isRecord(next)) at = next;
    else {
      const made: Record<string, unknown> = {};
      at[key] = made;
      at = made;
    }
  }
  at[path[path.length - 1]!] = value;
}

/** The scalar members of an event's data; fromEntries keeps a `__proto__` member as one. */
export function scalarsOf(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== "object") return {};
  return Object.fromEntries(
    Object.entries(data).filter(
      ([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value),
    ),
  );
}
