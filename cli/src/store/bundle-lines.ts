import { DuckDBInstance } from "@duckdb/node-api";
import type { OpenedBundle } from "@harnessx/recorder";
import { TYPED_FROM_LINES, type RecordingTables } from "@harnessx/recorder";

/** `lines` (one JSON line per event) and `typed_events` over a verified bundle's events, for the same SQL as store runs. */
export async function bundleLines(bundle: OpenedBundle): Promise<RecordingTables> {
  const instance = await DuckDBInstance.create(":memory:", { autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
  const connection = await instance.connect();
  await connection.run("CREATE TABLE lines (line VARCHAR)");
  const appender = await connection.createAppender("lines");
  for (const event of bundle.events) {
    appender.appendVarchar(JSON.stringify(event));
    appender.endRow();
  }
  appender.closeSync();
  await connection.run(TYPED_FROM_LINES);
  return {
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
