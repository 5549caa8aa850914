import { tool, type Tool } from "@harnessx/core";
import type { ReadResultInput } from "./read-result-input.js";
import type { ResultReader } from "./result-reader.js";

/** Name under which the spill registers its reading tool. */
export const READ_RESULT_TOOL = "read_result";

/** JSON Schema of `read_result`'s input (the fields of `ReadResultInput`). */
export const READ_RESULT_SCHEMA = {
  /** The input is one JSON object. */
  type: "object",
  /** One JSON Schema per input field. */
  properties: {
    /** Schema of `resultId`. */
    resultId: {
      /** A string. */
      type: "string",
      /** What the model is told about the field. */
      description: 'The resultId from a spilled-result envelope, e.g. "res_0123456789abcdef".',
    },
    /** Schema of `op`. */
    op: {
      /** A string. */
      type: "string",
      /** The four operations. */
      enum: ["slice", "search", "schema", "query"],
      /** What the model is told about the field. */
      description:
        "slice: a range of lines or characters; search: find a pattern; schema: columns, types, rows and samples; query: one SQL SELECT over table result (tabular kinds).",
    },
    /** Schema of `unit`. */
    unit: {
      /** A string. */
      type: "string",
      /** The two slice units. */
      enum: ["lines", "chars"],
      /** What the model is told about the field. */
      description: 'slice unit (default "lines"); JSON is pretty-printed first.',
    },
    /** Schema of `start`. */
    start: {
      /** An integer. */
      type: "integer",
      /** Lowest value accepted. */
      minimum: 0,
      /** What the model is told about the field. */
      description: "slice: first line (from 1) or character offset (from 0).",
    },
    /** Schema of `count`. */
    count: {
      /** An integer. */
      type: "integer",
      /** Lowest value accepted. */
      minimum: 1,
      /** What the model is told about the field. */
      description: "slice: how many lines or characters.",
    },
    /** Schema of `pattern`. */
    pattern: {
      /** A string. */
      type: "string",
      /** What the model is told about the field. */
      description:
        "search: the text to find, or a JavaScript regular expression when regex is true (/source/flags allowed, flags i s u).",
    },
    /** Schema of `regex`. */
    regex: {
      /** A boolean. */
      type: "boolean",
      /** What the model is told about the field. */
      description: "search: treat pattern as a regular expression (default false: literal, case-sensitive).",
    },
    /** Schema of `sql`. */
    sql: {
      /** A string. */
      type: "string",
      /** What the model is told about the field. */
      description: "query: exactly one DuckDB SELECT over table result.",
    },
  },
  /** Fields every call must give. */
  required: ["resultId", "op"],
  /** Fields other than those listed are refused. */
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
