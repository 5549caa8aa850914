// Incident bundle export (issue 4): export a ~100 MB recording; MB/s, and the compression of
// the events against gzip (zlib level 6) on the same NDJSON.
// Run: npx tsx test/bench/recorder-bundle.bench.ts [megabytes=100]
import { statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { zstdDecompress } from "@harnessx/artifacts";
import { openBundle, RecordingStore } from "@harnessx/recorder";
import { emitEvents, fmt, recordingHarness, tempStore } from "./support/recording.js";

const megabytes = Number(process.argv[2] ?? 100);
const MB = 1024 * 1024;
const PADDING = 60; // ~1.5 KB events (the text appears twice: result and raw result)
const store = tempStore("hx-bench-bundle-");
try {
  const { agent, recorder, runId } = recordingHarness({ dir: store.dir, inlinePayloadBytes: 1024 * 1024 });
  const approxEventBytes = 1500;
  await emitEvents(agent, runId, Math.ceil((megabytes * MB) / approxEventBytes), 1000, PADDING);
  await agent.close();
  const recorded = new RecordingStore(store.dir);
  const listing = await recorded.getRun(runId);

  const started = performance.now();
  const exported = await recorded.exportIncident({ runId, reason: "bench" });
  const exportSeconds = (performance.now() - started) / 1000;

  const opened = await openBundle(exported.path);
  const ndjson = await zstdDecompress(opened.member("events.ndjson.zst")!);
  const zstdBytes = opened.member("events.ndjson.zst")!.byteLength;
  const gzStarted = performance.now();
  const gzBytes = gzipSync(ndjson).byteLength;
  const gzSeconds = (performance.now() - gzStarted) / 1000;
  console.log(`incident bundle export: ${fmt(listing.events)} events, ${fmt(ndjson.byteLength / MB, 1)} MB of NDJSON`);
  console.log(`  export time              ${fmt(exportSeconds, 2)} s  -> ${fmt(ndjson.byteLength / MB / exportSeconds, 1)} MB/s of recording`);
  console.log(`  bundle file              ${fmt(statSync(exported.path).size / MB, 2)} MB`);
  console.log(`  events, zstd (level 3)   ${fmt(zstdBytes / MB, 2)} MB   ratio ${fmt(ndjson.byteLength / zstdBytes, 1)}x`);
  console.log(`  events, gzip (level 6)   ${fmt(gzBytes / MB, 2)} MB   ratio ${fmt(ndjson.byteLength / gzBytes, 1)}x   (gzip alone took ${fmt(gzSeconds, 2)} s)`);
  console.log(`  zstd size / gzip size    ${fmt(zstdBytes / gzBytes, 2)}`);
} finally {
  store.cleanup();
}
