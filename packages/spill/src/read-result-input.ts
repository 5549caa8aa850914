/** What `read_result` accepts (validated by the tool's JSON Schema first). */
export interface ReadResultInput {
  /** Id from a spilled-result envelope of this session, like `"res_0123456789abcdef"`. */
  resultId: string;
  /** Read a range (`slice`), find a pattern (`search`), describe the structure (`schema`) or run SQL on a table (`query`). */
  op: "slice" | "search" | "schema" | "query";
  /** `slice` only: count in lines (default) or characters; JSON results are pretty-printed first. */
  unit?: "lines" | "chars";
  /** `slice` only: first line number (from 1, default 1) or character offset (from 0, default 0). */
  start?: number;
  /** `slice` only: lines to return (default 200) or characters (default and cap `maxOutputChars`). */
  count?: number;
  /** `search` only (required there): literal text to find, or a regular expression when `regex` is true. */
  pattern?: string;
  /** `search` only: treat `pattern` as a JavaScript regular expression. Default false (literal, case-sensitive). */
  regex?: boolean;
  /** `query` only (required there): one DuckDB `SELECT` over the table `result`; tabular results only. */
  sql?: string;
}
