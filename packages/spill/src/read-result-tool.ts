import { tool, type Tool } from "@harnessx/core";
import type { ReadResultInput, ResultReader } from "./result-reader.js";

export const READ_RESULT_TOOL = "read_result";

/** JSON Schema of `read_result`'s input. */
export const READ_RESULT_SCHEMA = {
  type: "object",
  properties: {
    resultId: { type: "string", description: 'The resultId from a spilled-result envelope, e.g. "res_0123456789abcdef".' },
    op: { type: "string", enum: ["slice", "search", "schema", "query"], description: "slice: a range of lines or characters; search: find a pattern; schema: columns, types, rows and samples; query: one SQL SELECT over table result (tabular kinds)." },
    unit: { type: "string", enum: ["lines", "chars"], description: 'slice unit (default "lines"); JSON is pretty-printed first.' },
    start: { type: "integer", minimum: 0, description: "slice: first line (from 1) or character offset (from 0)." },
    count: { type: "integer", minimum: 1, description: "slice: how many lines or characters." },
    pattern: { type: "string", description: "search: the text to find, or a JavaScript regular expression when regex is true (/source/flags allowed, flags i s u)." },
    regex: { type: "boolean", description: "search: treat pattern as a regular expression (default false: literal, case-sensitive)." },
    sql: { type: "string", description: "query: exactly one DuckDB SELECT over table result." },
  },
  required: ["resultId", "op"],
  additionalProperties: false,
} as const;

/** The `read_result` tool over one session's spilled results; read-only, so safe to replay. */
export function readResultTool(reader: ResultReader): Tool {
  return tool({
    name: READ_RESULT_TOOL,
    description:
      "Read a large tool result that was stored instead of shown (its envelope gives the resultId) without running the tool again: " +
      "slice lines or characters, search with line numbers and context, get the schema, or run one SQL SELECT over table result. Output is capped.",
    inputSchema: READ_RESULT_SCHEMA as unknown as Record<string, unknown>,
    replayPolicy: "safe",
    execute: (input) => reader.read(input as unknown as ReadResultInput),
  });
}
