// A tool reads a file holding a private key: the spill's preview cuts it, the model reads it back
// in slices, chars and search hits, and a tool hands it over as a Buffer. None of the key's body
// lines may reach any sink: the recording, the journal, a bundle, a scrubbed bundle, a Parquet
// dataset, OTLP and Chrome conversions, the HTML report, LangSmith and live OTLP.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  Agent,
  ArtifactStore,
  FileDurableStore,
  FlightRecorderExtension,
  OpenTelemetryExtension,
  ResultSpillExtension,
  ScriptedProvider,
  tool,
  zstdDecompress,
  type Message,
  type ModelRequest,
} from "harnessx";
import { LangSmithExtension } from "harnessx/langsmith";
import { setupTelemetry } from "harnessx/otel-setup";
import {
  startLangSmithServer,
  startOtlpReceiver,
  type LangSmithServer,
  type OtlpReceiver,
} from "@harnessx/exporters/test-support";
import { bundleText } from "@harnessx/recorder/test-support";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-keys-");
const pem = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
}).privateKey;
const keyLines = pem.trim().split("\n");
const body = keyLines.slice(1, -1);
// The key starts ~1,000 bytes in: the spill's 1,500-byte preview cuts it after a few lines.
const lines = Array.from({ length: 600 }, (_, i) => `2026-01-01T00:00:00Z worker-${i} deploy step ${i} ok`);
lines.splice(16, 0, ...keyLines);
const file = lines.join("\n");
const keyAt = 17;

/** Body lines of the key found in `text` (a whole line, or 20 characters of its start or end). */
const found = (text: string) =>
  body.filter((line) => text.includes(line) || text.includes(line.slice(0, 20)) || text.includes(line.slice(-20)));
/** Per sink, the body lines found anywhere in it: the figure docs/reliability.md quotes. */
const leaked = new Map<string, Set<string>>();
function check(sink: string, text: string): string[] {
  const lines = found(text);
  for (const line of lines) (leaked.get(sink) ?? leaked.set(sink, new Set()).get(sink)!).add(line);
  if (!leaked.has(sink)) leaked.set(sink, new Set());
  return lines;
}

function lastToolResult(request: ModelRequest): string {
  const block = (request.messages.at(-1) as Message).content.find((b) => b.type === "tool_result");
  return block?.type === "tool_result" ? block.content : "";
}

let runId = "";
let journals = "";
let langsmith: LangSmithServer;
let otlp: OtlpReceiver;

before(async () => {
  langsmith = await startLangSmithServer();
  otlp = await startOtlpReceiver();
  journals = mkdtempSync(join(tmpdir(), "hx-keys-journal-"));
  let resultId = "";
  const read = (input: Record<string, unknown>) => (request: ModelRequest) => {
    // The model reads the envelope cut at maxResultChars (inside the key): its id comes first.
    resultId ||= /"resultId":\s*"(res_[0-9a-f]+)"/.exec(lastToolResult(request))![1];
    return { toolCalls: [{ name: "read_result", input: { resultId, ...input } }] };
  };
  const provider = new ScriptedProvider([
    { toolCalls: [{ name: "cat", input: { path: "deploy.log" } }] },
    read({ op: "slice", start: keyAt + 6, count: 2 }),
    read({ op: "slice", unit: "chars", start: file.indexOf(body[14]) + 8, count: 40 }),
    read({ op: "search", pattern: body[20].slice(10, 30) }),
    read({ op: "search", pattern: "^[A-Za-z0-9+/]{64}$", regex: true }),
    read({ op: "slice", start: keyAt - 1, count: keyLines.length + 2 }),
    { toolCalls: [{ name: "read_bytes", input: { path: "id.pem" } }] },
    { text: "done" },
  ]);
  const telemetry = setupTelemetry({ serviceName: "keys", url: otlp.url });
  const agent = new Agent({
    limits: { maxResultChars: 1_000 },
    provider,
    tools: [
      tool({ name: "cat", description: "reads a file", execute: () => file }),
      tool({ name: "read_bytes", description: "reads a file's bytes", execute: () => Buffer.from(pem) }),
    ],
    durable: { store: new FileDurableStore(journals) },
    extensions: [
      new FlightRecorderExtension({ dir: cli.store }),
      new ResultSpillExtension({ store: new ArtifactStore(cli.store), thresholdBytes: 8_000 }),
      new LangSmithExtension({ clientConfig: { apiUrl: langsmith.url, apiKey: "test-key" }, projectName: "keys" }),
      new OpenTelemetryExtension({ telemetry, captureContent: true }),
    ],
  });
  const result = await agent.run("what went wrong in the deploy?");
  await agent.close();
  await telemetry.shutdown();
  assert.equal(result.status, "completed", result.error?.message);
  runId = result.runId;
});

after(async () => {
  console.log(
    `private key body lines (of ${body.length}) per sink: ${[...leaked].map(([sink, lines]) => `${sink} ${lines.size}`).join(", ")}`,
  );
  await langsmith.close();
  await otlp.close();
  rmSync(journals, { recursive: true, force: true });
  cli.cleanup();
});

/** Every file under `dir` as text, zstd files decompressed; `skip` names files left out. */
async function filesUnder(
  dir: string,
  skip: (name: string) => boolean = () => false,
): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...(await filesUnder(path, skip)));
    else if (!skip(name))
      out.push([
        path,
        name.endsWith(".zst")
          ? (await zstdDecompress(readFileSync(path))).toString("utf8")
          : readFileSync(path, "latin1"),
      ]);
  }
  return out;
}

async function trace(...args: string[]): Promise<string> {
  const r = await cli.trace(...args);
  assert.equal(r.code, 0, `trace ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

describe("no body line of a private key reaches any sink", () => {
  test("the recording (the raw spill the model reads aside: the store keeps it raw, as documented)", async () => {
    const raw = createHash("sha256").update(file).digest("hex");
    assert.ok((await new ArtifactStore(cli.store).list()).includes(raw), "the spilled result is in the store");
    for (const [path, text] of await filesUnder(cli.store, (name) => name.startsWith(raw)))
      assert.deepEqual(check("recording", text), [], path);
  });

  test("the journal", async () => {
    for (const [path, text] of await filesUnder(journals)) assert.deepEqual(check("journal", text), [], path);
  });

  test("a bundle, and a scrubbed bundle", async () => {
    await trace("export", runId, "-o", join(cli.work, "incident.tar"));
    await trace("scrub", join(cli.work, "incident.tar"), "-o", join(cli.work, "scrubbed.tar"));
    const members = async (name: string, sink: string) =>
      [...(await bundleText(join(cli.work, name)))]
        .filter(([, text]) => check(sink, text).length > 0)
        .map(([member]) => member);
    assert.deepEqual(
      { bundle: await members("incident.tar", "bundle"), scrubbed: await members("scrubbed.tar", "scrubbed bundle") },
      { bundle: [], scrubbed: [] },
    );
  });

  test("a Parquet dataset", async () => {
    const dataset = join(cli.work, "dataset");
    await trace("export", "--format", "parquet", runId, "--out", dataset);
    for (const table of ["runs", "events", "spans", "artifacts"])
      assert.deepEqual(
        check("Parquet", await trace("--json", "query", "--dataset", dataset, `SELECT * FROM ${table}`)),
        [],
        table,
      );
    for (const [path, text] of await filesUnder(dataset, (name) => name.endsWith(".parquet")))
      assert.deepEqual(check("Parquet", text), [], path);
  });

  test("OTLP and Chrome conversions, and the HTML report", async () => {
    await trace("convert", runId, "--to", "otlp", "--content", "-o", join(cli.work, "spans.jsonl"));
    await trace("convert", runId, "--to", "chrome", "--content", "-o", join(cli.work, "trace.json"));
    await trace("report", runId, "-o", join(cli.work, "report.html"));
    const html = readFileSync(join(cli.work, "report.html"), "utf8");
    // The report embeds its payloads as base64 gzip blocks: read them inflated.
    const payloads = [...html.matchAll(/"([A-Za-z0-9+/]{40,}={0,2})"/g)].flatMap(([, b64]) => {
      try {
        return [gunzipSync(Buffer.from(b64, "base64")).toString("utf8")];
      } catch {
        return [];
      }
    });
    assert.ok(
      payloads.some((text) => text.includes("read_result")),
      "the report's payloads were read",
    );
    const texts: Array<[string, string]> = [
      ["OTLP conversion", readFileSync(join(cli.work, "spans.jsonl"), "utf8")],
      ["Chrome conversion", readFileSync(join(cli.work, "trace.json"), "utf8")],
      ["HTML report", [html, ...payloads].join("\n")],
    ];
    for (const [sink, text] of texts) assert.deepEqual(check(sink, text), [], sink);
  });

  test("LangSmith and live OTLP", () => {
    assert.ok(langsmith.runs.size > 0 && otlp.bodies.length > 0);
    assert.deepEqual(check("LangSmith", JSON.stringify([...langsmith.runs.values()])), [], "LangSmith");
    assert.deepEqual(check("live OTLP", otlp.bodies.join("\n")), [], "OTLP");
  });
});
