/** Only the lines of an NDJSON text that are JSON objects: the rows DuckDB loads. */
export function readableNdjson(text: string): string {
  return text
    .split("\n")
    .filter((line) => {
      const t = line.trim();
      if (!t.startsWith("{")) return false;
      try {
        const v: unknown = JSON.parse(t);
        return typeof v === "object" && v !== null && !Array.isArray(v);
      } catch {
        return false;
      }
    })
    .join("\n");
}
