// A small grammar of what a hostile model sends read_result: SQL built from DuckDB's string, list,
// regex, range, file, extension and settings functions; ids real and bogus; slices with absurd
// numbers; catastrophic regular expressions. Weighted so that most inputs are cheap refusals and a
// quarter are resource bombs, which keeps a property run within its time budget.
import fc from "fast-check";

/** Where file functions point: system files, host directories, the canary, relative escapes, URLs. */
export function hostilePaths(canary: string, storeRoot: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    "/etc/passwd",
    "/etc/hosts.csv",
    "/proc/self/environ",
    "~/.ssh/id_rsa",
    `${process.cwd()}/package.json`,
    `${storeRoot}/artifacts`,
    `${canary}/written.csv`,
    `${canary}/db.duckdb`,
    "../../../../etc/shadow",
    "swap/*",
    "*",
    "http://127.0.0.1:9/x.csv",
    "s3://bucket/key.parquet",
  );
}

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
const size = fc.constantFrom(1, 100, 10_000, 1_000_000, 100_000_000, 2_000_000_000);

/** A SELECT that builds something large: strings, lists, cross joins, recursion. */
const bombs: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(size, size).map(([n, m]) => `SELECT repeat('x', ${n}) FROM range(${Math.min(m, 100_000)})`),
  size.map((n) => `SELECT lpad('a', ${n}, 'b') AS p`),
  size.map((n) => `SELECT len(list_filter(range(${n}), x -> x % 7 = 0))`),
  size.map((n) => `SELECT list_sum(list_transform(range(${n}), x -> x * 2))`),
  size.map((n) => `SELECT string_agg(CAST(i AS VARCHAR), ',') FROM range(${n}) t(i)`),
  size.map((n) => `SELECT count(*) FROM range(${n}) a, range(${n}) b`),
  size.map((n) => `SELECT unnest(range(${n})) AS i`),
  fc.constant("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t"),
  fc.constant("WITH RECURSIVE t(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM t) SELECT length(s) FROM t LIMIT 100"),
  size.map((n) => `SELECT regexp_matches(repeat('a', ${Math.min(n, 10_000_000)}) || '!', '(a+)+$') AS m`),
  size.map((n) => `SELECT regexp_replace(repeat('ab', ${Math.min(n, 10_000_000)}), '(a|b)*c', 'x') AS r`),
  fc.integer({ min: 10, max: 20_000 }).map((depth) => `SELECT ${"(".repeat(depth)}1${")".repeat(depth)} AS deep`),
);

/** Statements and functions that reach outside table `result`: files, extensions, settings, other databases. */
function escapes(path: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          "read_csv",
          "read_text",
          "read_json",
          "read_parquet",
          "read_blob",
          "glob",
          "read_csv_auto",
          "sniff_csv",
        ),
        path,
      )
      .map(([fn, p]) => `SELECT * FROM ${fn}(${quoted(p)})`),
    path.map((p) => `SELECT * FROM ${quoted(p)}`),
    path.map((p) => `COPY result TO ${quoted(p)}`),
    path.map((p) => `COPY (SELECT * FROM result) TO ${quoted(p)} (FORMAT csv)`),
    path.map((p) => `ATTACH ${quoted(p)} AS other`),
    path.map((p) => `EXPORT DATABASE ${quoted(p)}`),
    path.map((p) => `LOAD ${quoted(p)}`),
    fc.constantFrom("INSTALL httpfs", "LOAD httpfs", "INSTALL sqlite FROM community", "FORCE INSTALL json"),
    fc.constantFrom(
      "PRAGMA threads = 64",
      "PRAGMA database_list",
      "SET enable_external_access = true",
      "RESET lock_configuration",
      "SET memory_limit = '100GB'",
      "CALL pragma_version()",
    ),
    fc
      .constantFrom(
        "temp_directory",
        "allowed_directories",
        "secret_directory",
        "extension_directory",
        "home_directory",
        "memory_limit",
        "TimeZone",
      )
      .map((s) => `SELECT current_setting(${quoted(s)}) AS v`),
    fc.constantFrom(
      "SELECT * FROM duckdb_settings()",
      "SELECT * FROM pg_catalog.pg_settings",
      "SELECT * FROM duckdb_extensions()",
      "SELECT * FROM duckdb_temporary_files()",
      "SELECT * FROM duckdb_databases()",
      "SELECT * FROM duckdb_secrets()",
      "SELECT getenv('HOME')",
      "SELECT * FROM which_secret('s3://x', 's3')",
    ),
    fc.constantFrom(
      "CREATE TABLE t AS SELECT 1",
      "DROP TABLE result",
      "DELETE FROM result",
      "UPDATE result SET id = 0",
      "SELECT 1; SELECT 2",
      "SELECT 1; DROP TABLE result",
    ),
  );
}

/** SQL for op "query", from the grammar or plain noise. */
export function hostileSql(path: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: escapes(path) },
    { weight: 1, arbitrary: bombs },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string(),
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.constantFrom("", ";", "SELEC * FROM result", "SELECT * FROM result"),
      ),
    },
  );
}

/** A pattern that backtracks badly in JavaScript, or noise, as a literal or a /source/flags regex. */
export const hostilePattern: fc.Arbitrary<{ pattern: string; regex: boolean }> = fc.record({
  pattern: fc.oneof(
    fc.constantFrom(
      "(a+)+$",
      "(a|a)*$",
      "(a|aa)+$",
      "^(\\w+\\s?)*$",
      "(.*a){12}",
      "(x+x+)+y",
      "([a-z]+)*!z",
      "(?:a*)*b",
      "/(a+)+$/i",
      "/(é+)+x/u",
      "/x/g",
      "(unclosed",
      "a{99999999}",
    ),
    fc.string({ maxLength: 30 }),
  ),
  regex: fc.boolean(),
});

/** A number a slice should never choke on. */
export const hostileNumber: fc.Arbitrary<number | undefined> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000_000 }),
  fc.constantFrom(undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300, 2 ** 53, -0),
  fc.double(),
);

/** A resultId: one spilled in this session, an unknown but well-formed id, or a path or junk. */
export function hostileId(real: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: fc.stringMatching(/^res_[0-9a-f]{16}$/) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom("../../../etc/passwd", "/etc/passwd", "res_../../x", "a".repeat(64), ""),
        fc.string(),
      ),
    },
  );
}
