// A node:test reporter people read: one line per test file, the failures in full, then one
// summary line ("N passed, N failed, N skipped"). TEST_REPORTER=tap gives the raw TAP instead.
const files = new Map();
const failures = [];
const started = Date.now();

function fileOf(data) {
  const file = data.file ?? "(no file)";
  let entry = files.get(file);
  if (!entry) files.set(file, (entry = { passed: 0, failed: 0, skipped: 0, ms: 0, names: [] }));
  return entry;
}

function relative(file) {
  const root = process.cwd().endsWith("/") ? process.cwd() : `${process.cwd()}/`;
  return file.startsWith(root) ? file.slice(root.length) : file;
}

function errorText(error) {
  const cause = error?.cause ?? error;
  const message = cause?.message ?? String(cause);
  const frames =
    typeof cause?.stack === "string"
      ? cause.stack
          .split("\n")
          .filter((l) => /^\s*at /.test(l))
          .slice(0, 3)
      : [];
  return [message.trim(), ...frames.map((l) => `  ${l.trim()}`)].join("\n");
}

export default async function* reporter(source) {
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === "test:start") {
      fileOf(data).names[data.nesting] = data.name;
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const entry = fileOf(data);
    if (data.nesting === 0) entry.ms += data.details?.duration_ms ?? 0;
    const leaf = data.details?.type !== "suite";
    if (event.type === "test:fail" && (leaf || data.details?.error?.failureType !== "subtestsFailed")) {
      entry.failed++;
      const path = [...entry.names.slice(0, data.nesting), data.name].filter(Boolean).join(" > ");
      failures.push(
        `✗ ${relative(data.file ?? "")}\n    ${path}\n    ${errorText(data.details?.error).split("\n").join("\n    ")}`,
      );
    } else if (event.type === "test:pass" && leaf) {
      if (data.skip !== undefined && data.skip !== false) entry.skipped++;
      else if (data.todo !== undefined && data.todo !== false) entry.skipped++;
      else entry.passed++;
    }
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [file, e] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    passed += e.passed;
    failed += e.failed;
    skipped += e.skipped;
    const counts = [`${e.passed} passed`, e.failed ? `${e.failed} failed` : "", e.skipped ? `${e.skipped} skipped` : ""]
      .filter(Boolean)
      .join(", ");
    yield `${e.failed ? "✗" : "✓"} ${relative(file)}  ${counts}  ${(e.ms / 1000).toFixed(1)} s\n`;
  }
  if (failures.length) yield `\nFailures:\n\n${failures.join("\n\n")}\n`;
  yield `\n${passed} passed, ${failed} failed, ${skipped} skipped (${files.size} files, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`;
}
