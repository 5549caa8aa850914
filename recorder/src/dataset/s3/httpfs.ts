import type { RecordingTables } from "../../store/recording-tables.js";
import { memoryDatabase } from "../../store/duckdb.js";
import { sqlString } from "../../store/sql-literal.js";
import { openParquetViews } from "../dataset-tables.js";
import { partitionDate, type DatasetTable } from "../layout.js";
import { parseDatasetMarker } from "../marker.js";
import { DATASET_MARKER } from "../layout.js";
import { checkTarget } from "./check-target.js";
import { datasetFileOf } from "./dataset-files.js";
import { listKeys } from "./list-keys.js";
import { connectS3 } from "./s3-client.js";
import type { S3ConnectionOptions } from "./s3-options.js";
import { S3TargetError } from "./s3-errors.js";
import { keyOf, parseS3Target, type S3Target } from "./s3-target.js";

/**
 * Whether DuckDB's httpfs extension is installed where DuckDB looks for extensions. harnessx never
 * installs it (that downloads from the network, and its DuckDB loads no extension on its own), so
 * this is true only where someone ran `INSTALL httpfs` for this DuckDB version.
 */
export async function httpfsInstalled(): Promise<boolean> {
  const instance = await memoryDatabase();
  const connection = await instance.connect();
  try {
    const rows = (
      await connection.runAndReadAll("SELECT installed FROM duckdb_extensions() WHERE extension_name = 'httpfs'")
    ).getRowObjectsJson();
    return rows[0]?.installed === true;
  } catch {
    return false;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What httpfs needs to reach the target as the SDK would: the SDK's resolved credentials, region and endpoint. */
export interface HttpfsSecret {
  /** The access key id. */
  keyId: string;
  /** The secret access key. */
  secret: string;
  /** The session token of temporary credentials. */
  sessionToken?: string;
  /** The region requests are signed for. */
  region: string;
  /** A custom endpoint (`http://host:port`), or undefined for AWS. */
  endpoint?: string;
  /** Path-style addressing (`endpoint/bucket/key`). */
  pathStyle: boolean;
}

/** `CREATE SECRET` for httpfs from what the SDK resolved (never written anywhere: a temporary, in-memory secret). */
export function createSecretSql(secret: HttpfsSecret): string {
  const parts = [
    `TYPE s3`,
    `KEY_ID ${sqlString(secret.keyId)}`,
    `SECRET ${sqlString(secret.secret)}`,
    `REGION ${sqlString(secret.region)}`,
  ];
  if (secret.sessionToken) parts.push(`SESSION_TOKEN ${sqlString(secret.sessionToken)}`);
  if (secret.endpoint) {
    const url = new URL(secret.endpoint);
    parts.push(`ENDPOINT ${sqlString(url.host)}`, `USE_SSL ${url.protocol === "https:"}`);
  }
  if (secret.pathStyle) parts.push(`URL_STYLE 'path'`);
  return `CREATE TEMPORARY SECRET harnessx_s3 (${parts.join(", ")})`;
}

/** Options of `openS3DatasetTables`. */
export interface S3DatasetTableOptions {
  /** `s3://bucket/prefix` of a dataset. */
  from: string | S3Target;
  /** Only runs started on or after this UTC day (ms since the epoch): older partitions are not listed. */
  since?: number;
  /** SQL may read the views and nothing else (see `lockToReading`). */
  readOnly?: boolean;
  /** Endpoint, region, credentials; default the standard AWS chain. */
  connection?: S3ConnectionOptions;
}

/**
 * A remote dataset's tables read in place through DuckDB's httpfs (call only when
 * `httpfsInstalled()`): the keys are listed with the SDK (the date filter as `StartAfter`), the
 * views are the local reader's (`openParquetViews`) over `s3://` URLs, and httpfs gets the
 * SDK's resolved credentials as a temporary secret.
 */
export async function openS3DatasetTables(options: S3DatasetTableOptions): Promise<RecordingTables> {
  const target = typeof options.from === "string" ? parseS3Target(options.from) : options.from;
  const connection = await connectS3(options.connection);
  try {
    const marker = await checkTarget(connection, target);
    if (marker === undefined)
      throw new S3TargetError(
        "not_a_dataset",
        target.url,
        `${target.url} is not a dataset: it has no ${DATASET_MARKER}`,
      );
    parseDatasetMarker(marker, target.url);
    const filesOf = async (table: DatasetTable): Promise<string[]> => {
      const prefix = keyOf(target, `${table}/`);
      const urls: string[] = [];
      for await (const object of listKeys(
        connection,
        target.bucket,
        prefix,
        options.since === undefined ? undefined : `${prefix}date=${partitionDate(options.since)}`,
      )) {
        if (datasetFileOf(object.key.slice(keyOf(target, "").length))?.runId !== undefined)
          urls.push(`s3://${target.bucket}/${object.key}`);
      }
      return urls;
    };
    const credentials = await connection.client.config.credentials();
    const secret: HttpfsSecret = {
      keyId: credentials.accessKeyId,
      secret: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
      region: await connection.client.config.region(),
      ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
      pathStyle: connection.client.config.forcePathStyle === true,
    };
    return await openParquetViews(filesOf, {
      readOnly: options.readOnly,
      prepare: async (db) => {
        await db.run("LOAD httpfs");
        await db.run(createSecretSql(secret));
      },
    });
  } finally {
    connection.client.destroy();
  }
}
