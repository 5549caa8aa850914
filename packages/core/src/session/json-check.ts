import { SessionStateError } from "../errors.js";

/** Refuses values JSON cannot carry faithfully, naming the path of the first bad value. */
export function assertJsonCompatible(value: unknown, path = "$"): void {
  const problem = jsonProblem(value, path);
  if (problem)
    throw new SessionStateError(
      `session state is not JSON-compatible at ${problem.path}: ${problem.why}`,
      problem.path,
    );
}

/** The first value JSON cannot carry faithfully, with its path; undefined when there is none. */
export function jsonProblem(value: unknown, path = "$"): { path: string; why: string } | undefined {
  try {
    walk(value, path, new Set());
    return undefined;
  } catch (err) {
    if (err instanceof NotJson) return { path: err.path, why: err.why };
    throw err;
  }
}

class NotJson extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(why);
  }
}

function walk(value: unknown, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(value)) fail(path, `${value} is not a finite number`);
      return;
    case "bigint":
      fail(path, "a BigInt is not JSON-compatible");
      return;
    case "function":
      fail(path, "a function is not JSON-compatible");
      return;
    case "symbol":
      fail(path, "a symbol is not JSON-compatible");
      return;
    case "undefined":
      fail(path, "undefined is not JSON-compatible (use null)");
      return;
  }
  if (value === null) return;
  const obj = value as object;
  if (ancestors.has(obj)) fail(path, "a cycle: this value contains itself");
  if (Array.isArray(obj)) {
    ancestors.add(obj);
    obj.forEach((item, i) => {
      walk(item, `${path}[${i}]`, ancestors);
    });
    ancestors.delete(obj);
    return;
  }
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null)
    fail(path, `a ${obj.constructor?.name ?? "class instance"} is not a plain JSON object`);
  ancestors.add(obj);
  for (const [key, item] of Object.entries(obj)) walk(item, `${path}.${key}`, ancestors);
  ancestors.delete(obj);
}

function fail(path: string, why: string): never {
  throw new NotJson(path, why);
}
