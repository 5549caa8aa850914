// A process that compacts a store and kills itself (SIGKILL, no cleanup) once the given step of
// the compaction is done: the partitions' crash tests. Arguments: the store and the step.
import { compactRuns, type CompactStep } from "../parts/compact-runs.js";

const [dir, step] = process.argv.slice(2) as [string, CompactStep];
await compactRuns(dir, {
  onStep: (done) => {
    if (done === step) process.kill(process.pid, "SIGKILL");
  },
});
// Reaching here means the step never came: the test reads the exit code.
process.exit(3);
