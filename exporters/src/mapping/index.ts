export { GenAI, Hx } from "./attributes.js";
export { redactAttributes, redactEvent } from "./redacted.js";
export type { TracedAgent, AttributeValue, Attributes, SpanClose, SpanDetail, SpanError, SpanEventSpec, SpanKindName, SpanOpen, SpanRole, SpanSink, SpillReference, TraceEvent } from "./span-model.js";
export { SpanTracker, TRACED_EVENTS } from "./tracker.js";
export { DEFAULT_MAX_CONTENT_CHARS, type MappingOptions } from "./span-specs.js";
export { inputMessages, outputMessages, systemInstructions, toolDefinitions, type GenAIMessage, type GenAIPart } from "./content.js";
