/**
 * `out[key] = value` as an own member, whatever the key: parsed JSON may hold a `"__proto__"`
 * member, which a plain assignment would turn into the copy's prototype, so the copy would
 * lose it from its keys and its JSON (a tool's output or a model's input could hide text from
 * the recording so).
 */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
