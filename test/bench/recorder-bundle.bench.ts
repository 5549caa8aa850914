// Incident bundle export (issue 4, 14): export a ~100 MB recording; MB/s of plain event bytes
// exported, against native zstd compressing the same bytes in this process (what export would
// cost if it only compressed the run once), and the events' size against gzip (zlib level 6).
// Run: node --expose-gc --import tsx test/bench/recorder-bundle.bench.ts [megabytes=100]
import { statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { zstdCompress, zstdDecompress } from "@harnessx/artifacts";
import { openBundle, RecordingStore } from "@harnessx/recorder";
import { median, report, sized } from "./support/report.js";
import { emitEvents, fmt, recordingHarness, tempStore } from "./support/recording.js";

const megabytes = Number(process.argv[2] ?? sized(100, 3));
const RUNS = sized(3, 1);
const MB = 1024 * 1024;
const PADDING = 60; // ~1.5 KB events (the text appears twice: result and raw result)
const store = tempStore("hx-bench-bundle-");
try {
  const { agent, runId } = recordingHarness({ dir: store.dir, inlinePayloadBytes: 1024 * 1024 });
  const approxEventBytes = 1500;
  await emitEvents(agent, runId, Math.ceil((megabytes * MB) / approxEventBytes), 1000, PADDING);
  await agent.close();
  const recorded = new RecordingStore(store.dir);
  const listing = await recorded.getRun(runId);

  // The median of a few exports: the machine is shared and one run is noisy.
  const seconds: number[] = [];
  let path = "";
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const started = performance.now();
    path = (await recorded.exportIncident({ runId, reason: "bench", out: `${store.dir}/bundle-${i}.tar` })).path;
    seconds.push((performance.now() - started) / 1000);
  }
  const exportSeconds = median(seconds);

  const opened = await openBundle(path);
  const ndjson = await zstdDecompress(opened.member("events.ndjson.zst")!);
  const zstdBytes = opened.member("events.ndjson.zst")!.byteLength;
  const compressSeconds: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await zstdCompress(ndjson);
    compressSeconds.push((performance.now() - started) / 1000);
  }
  const gzStarted = performance.now();
  const gzBytes = gzipSync(ndjson).byteLength;
  const gzSeconds = (performance.now() - gzStarted) / 1000;
  const plainMb = ndjson.byteLength / MB;
  console.log(
    `incident bundle export: ${fmt(listing.events)} events, ${fmt(plainMb, 1)} MB of NDJSON; bundle ${fmt(statSync(path).size / MB, 2)} MB`,
  );
  report("recorder-bundle", [
    {
      measure: "bundle export throughput",
      unit: "MB/s",
      harnessx: plainMb / exportSeconds,
      anchor: plainMb / median(compressSeconds),
      anchorName: "zstd compress",
      aim: { on: "value", op: ">=", target: 200 },
      note: `median of ${RUNS}, ${fmt(exportSeconds, 2)} s for ${fmt(plainMb, 1)} MB`,
    },
    {
      measure: "bundle events size vs gzip",
      unit: "ratio",
      harnessx: zstdBytes / gzBytes,
      note: `zstd ${fmt(zstdBytes / MB, 2)} MB (${fmt(ndjson.byteLength / zstdBytes, 1)}x), gzip -6 ${fmt(gzBytes / MB, 2)} MB in ${fmt(gzSeconds, 2)} s`,
    },
  ]);
} finally {
  store.cleanup();
}
