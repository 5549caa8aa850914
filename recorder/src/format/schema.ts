// The small combinators every file shape of the recorder is written in (validate.ts): each
// returns what is wrong with a value at a path, or undefined.

/** Returns what is wrong with `value` at `path` ("members[2].sha256 must be ..."), or undefined. */
export type Schema = (value: unknown, path: string) => string | undefined;

export const is =
  (test: (v: unknown) => boolean, what: string): Schema =>
  (value, path) =>
    test(value) ? undefined : `${path || "the value"} must be ${what}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const string = is((v) => typeof v === "string", "a string");
export const nonEmpty = is((v) => typeof v === "string" && v.length > 0, "a non-empty string");
export const finite = is((v) => typeof v === "number" && Number.isFinite(v), "a finite number");
export const count = is((v) => Number.isSafeInteger(v) && (v as number) >= 0, "a whole number >= 0");
export const positive = is((v) => Number.isSafeInteger(v) && (v as number) > 0, "a whole number > 0");
export const sha256 = is(
  (v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v),
  "a sha256 (64 lowercase hex characters)",
);
export const anything: Schema = () => undefined;
export const boolean = is((v) => typeof v === "boolean", "true or false");
export const literal = (expected: unknown): Schema => is((v) => v === expected, JSON.stringify(expected));
export const oneOf = (values: readonly string[]): Schema =>
  is((v) => values.includes(v as string), `one of ${values.join(", ")}`);
export const nullable =
  (inner: Schema): Schema =>
  (value, path) =>
    value === null ? undefined : inner(value, path);

export function arrayOf(item: Schema): Schema {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path || "the value"} must be an array`;
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

export function recordOf(item: Schema): Schema {
  return (value, path) => {
    if (!isRecord(value)) return `${path || "the value"} must be an object`;
    // Every event's attrs are a record of anything: no need to walk (and allocate) its entries.
    if (item === anything) return undefined;
    for (const [key, entry] of Object.entries(value)) {
      const problem = item(entry, `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object with these fields; a field whose schema is wrapped in `optional` may be absent. */
export function object(fields: Record<string, Schema>, optionalFields: Record<string, Schema> = {}): Schema {
  // Listed once: every event line of a run is checked against this.
  const required = Object.entries(fields);
  const optional = Object.entries(optionalFields);
  return (value, path) => {
    if (!isRecord(value)) return `${path || "the value"} must be an object`;
    for (const [key, schema] of required) {
      if (!(key in value)) return `${path ? `${path}.${key}` : key} is missing`;
      const problem = schema(value[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    for (const [key, schema] of optional) {
      const problem = value[key] === undefined ? undefined : schema(value[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return undefined;
  };
}
