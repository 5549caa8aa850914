// Result spilling: large tool results stored as artifacts, read by the model through `read_result`.
export { ResultSpillExtension } from "./result-spill-extension.js";
export { ReadResultError } from "./errors.js";
export { READ_RESULT_TOOL, READ_RESULT_SCHEMA } from "./read-result-tool.js";
export type { ResultSpillOptions, SpillStore, SpillRetention, ReadResultLimits } from "./options.js";
export type { ResultKind } from "./detect.js";
export type { SpillRecord } from "./spill-index.js";
export type { SpillEventData } from "./spiller.js";
export type { ReadResultInput } from "./read-result-input.js";
