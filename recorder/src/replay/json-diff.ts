/** The first place two JSON values differ, as a path like `messages.3.content.0.text`; undefined when equal. */
export function firstDifference(
  recorded: unknown,
  actual: unknown,
  path = "",
): { path: string; recorded: unknown; actual: unknown } | undefined {
  if (recorded === actual) return undefined;
  const here = path || "(root)";
  if (typeof recorded !== typeof actual || recorded === null || actual === null || typeof recorded !== "object") {
    return { path: here, recorded, actual };
  }
  if (Array.isArray(recorded) !== Array.isArray(actual)) return { path: here, recorded, actual };
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    const length = Math.max(recorded.length, actual.length);
    for (let i = 0; i < length; i++) {
      const diff = firstDifference(recorded[i], actual[i], path ? `${path}.${i}` : String(i));
      if (diff) return diff;
    }
    return undefined;
  }
  const a = recorded as Record<string, unknown>;
  const b = actual as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const diff = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
    if (diff) return diff;
  }
  return undefined;
}
