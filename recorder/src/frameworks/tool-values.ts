// Tool values as harnessx records them, for every framework adapter: arguments as a JSON object,
// results as the text a tool result carries.

/** A tool's arguments as a JSON object (a tool whose input is not an object keeps it under `input`). */
export function toolInput(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : input === undefined
      ? {}
      : { input };
}

/** A tool's output as the text a result carries. */
export function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined) return "";
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}
