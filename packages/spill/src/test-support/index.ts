// What other packages' tests use of the spill's test support: `@harnessx/spill/test-support` (source only, never built).
export { SpillHarness, tempStore, snapshot, type SpillEvent } from "./spill-harness.js";
// The spill's table and lock settings, measured on their own by test/bench/spill.bench.ts.
export { lockSettings, resolveLimits } from "../options.js";
export { ResultTable } from "../result-table.js";
