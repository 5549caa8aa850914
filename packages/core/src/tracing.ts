// The entry for span sinks (exporters, the recorder, converters): span identity and scopes, the
// one mapping from run events to GenAI spans, span names and attributes, and their redaction.
export { currentScope, inScope, type SpanScope } from "./spans/scopes.js";
export { isSpanId, isTraceId, newSpanId, newTraceId, type SpanContext, type SpanRole } from "./spans/span-context.js";
export { traceIdRatioSampled } from "./spans/trace-id-ratio.js";
export { SPAN_KIND, SPAN_OPERATION, spanName, type SpanKindName } from "./spans/span-names.js";
export type { SpanIdSource, SpanIds, SpanStart } from "./spans/id-source.js";
export { SpanMapper, TRACED_EVENTS } from "./spans/mapper.js";
export { SpanCollector, type MappedSpan } from "./spans/span-collector.js";
export { SpanStream, type MapSpansOptions } from "./spans/span-stream.js";
export { mapSpans } from "./spans/map-spans.js";
export { DEFAULT_MAX_CONTENT_CHARS, type MappingOptions } from "./spans/span-specs.js";
export { CostAttributes, GenAI, Hx, RUN_METADATA_CONVENTIONS } from "./spans/attributes.js";
export { redactAttributes, redactEvent, redactSpanName, type RepeatedValues } from "./spans/redacted.js";
export {
  inputMessages,
  outputMessages,
  systemInstructions,
  toolDefinitions,
  type GenAIMessage,
  type GenAIPart,
} from "./spans/content.js";
export {
  traceEventOf,
  type AttributeValue,
  type Attributes,
  type SpanClose,
  type SpanDetail,
  type SpanError,
  type SpanEventSpec,
  type SpanOpen,
  type SpanSink,
  type SpillReference,
  type TraceEvent,
  type TracedAgent,
} from "./spans/span-model.js";
