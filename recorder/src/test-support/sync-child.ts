// A process that syncs a store to S3 one file at a time and reports each upload; the resume test kills it with SIGKILL.
// Arguments: the store, the s3:// target, the endpoint (credentials: s3rver's, from the environment).
import { syncDataset } from "../dataset/s3/sync-dataset.js";

const [storeDir, to, endpoint] = process.argv.slice(2) as [string, string, string];
await syncDataset({
  storeDir,
  to,
  connection: { endpoint },
  concurrency: 1,
  onFile: (o) => void process.stdout.write(`${o.outcome} ${o.path}\n`),
});
process.stdout.write("done\n");
