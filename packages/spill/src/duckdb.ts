import { createRequire } from "node:module";

/**
 * `@duckdb/node-api`, required rather than imported. The package is CommonJS; importing it from
 * ESM first lexes each of its ~60 files for named exports, which was most of the query process's
 * start-up (measured about 3x slower than require). Only the query process loads it.
 */
export const duckdb = createRequire(import.meta.url)("@duckdb/node-api") as typeof import("@duckdb/node-api");
