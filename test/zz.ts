import { openRecording, runDirOf } from "@harnessx/recorder";
import { gzipSync, constants, brotliCompressSync } from "node:zlib";
import { readFileSync } from "node:fs";
const rid = readFileSync("/tmp/inc-rid", "utf8").trim();
await using rec = await openRecording({ runDir: runDirOf("/tmp/inc", rid) });
let block: string[] = []; let raw = 0, gz = 0, n = 0; const t = performance.now();
const flush = () => { const text = JSON.stringify(block); raw += text.length; gz += gzipSync(text, { level: 6 }).length; block = []; };
for await (const e of rec.events()) { const p = await rec.payloadOf(e); block.push(p === undefined ? "" : JSON.stringify(p).slice(0, 262144)); n++; if (block.length === 256) flush(); }
flush();
console.log({ n, rawMB: raw / 1e6, gzMB: gz / 1e6, s: (performance.now() - t) / 1000, rss: process.memoryUsage().rss / 1e6 });
