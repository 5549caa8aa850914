// Settings every property test (`*.fuzz.test.ts`) passes to fast-check: seeded so a failure
// reproduces, small under `npm test`, scaled up by `npm run fuzz` (FUZZ_SCALE), and bounded in
// time either way. A failure prints its seed and path; set FUZZ_SEED to replay it.
import type { Parameters } from "fast-check";

const DEFAULT_SEED = 20261202;

/** `runs` property runs under `npm test`; `FUZZ_SCALE` times as many under `npm run fuzz`. */
export function fuzzParameters<T>(runs: number, overrides: Parameters<T> = {}): Parameters<T> {
  const scale = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);
  const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED;
  return {
    numRuns: runs * scale,
    seed,
    // A property that stops making progress is a hang: fail it instead of stalling the suite.
    interruptAfterTimeLimit: 60_000 * scale,
    markInterruptAsFailure: true,
    endOnFailure: true,
    ...overrides,
  };
}
