/**
 * What reading a trusted project through its pin costs. `discover()` of a trusted project whose
 * extension files (TypeScript, each importing a helper) are imported from the bytes the
 * trust check hashed, beside the same files as the user's own extensions (no trust check, plain
 * jiti import); the trust check alone; and the first use of a knowledge bundle (every file read
 * and hashed against the pin) beside the same bundle read from disk. Interleaved rounds, medians
 * of the process's CPU time (user + system): on a shared machine wall time mostly measures the
 * neighbours.
 *
 *   node --expose-gc --import tsx test/bench/discovery.bench.ts
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discover, KnowledgeBundle, TrustStore } from "@harnessx/discovery";
import { median, report, sized } from "./support/report.js";

const EXTENSIONS = sized(20, 3);
const KNOWLEDGE_FILES = sized(2_000, 20);
const KNOWLEDGE_FILE_BYTES = 16 * 1024;
const ROUNDS = sized(15, 1);

const root = mkdtempSync(join(tmpdir(), "hx-bench-discovery-"));
try {
  const project = join(root, "project");
  const extensions = join(project, ".harnessx", "extensions");
  const helper = (i: number) =>
    `export const rule${i} = (input: string): boolean => input.length > ${i};\nexport const table${i} = ${JSON.stringify(Array.from({ length: 200 }, (_, k) => `entry-${i}-${k}`))};\n`;
  // One helper per extension: both loaders compile the same modules, so the ratio is what reading through the pin adds.
  for (let i = 0; i < EXTENSIONS; i++) {
    write(join(extensions, "lib", `helper${i}.ts`), helper(i));
    write(
      join(extensions, `guard${String(i).padStart(2, "0")}.ts`),
      `import { rule${i} } from "./lib/helper${i}.ts";\ninterface Options { limit: number }\nconst options: Options = { limit: ${i} };\nexport default { name: "guard${i}", install(): void { void rule${i}(String(options.limit)); } };\n`,
    );
  }
  // Knowledge in a project of its own, so the discover() rows do not digest it.
  const library = join(root, "library");
  const bundle = join(library, ".harnessx", "knowledge", "wiki");
  const line = "Drain traffic from the region, then restart the billing workers one by one.\n";
  for (let i = 0; i < KNOWLEDGE_FILES; i++)
    write(
      join(bundle, `section-${Math.floor(i / 100)}`, `page-${i}.md`),
      `# Page ${i}\n${line.repeat(Math.ceil(KNOWLEDGE_FILE_BYTES / line.length))}`.slice(0, KNOWLEDGE_FILE_BYTES),
    );

  const home = join(root, "home");
  const store = new TrustStore(join(home, "trust.json"));
  store.trust(project);
  store.trust(library);
  // The same files as the user's own: loaded without a trust check or pin.
  const userHome = join(root, "user-home");
  cpSync(extensions, join(userHome, "extensions"), { recursive: true });
  const empty = join(root, "empty");
  mkdirSync(empty);

  // Loading jiti and its compiler is paid once per process, by whichever goes first: not measured.
  await discover({ cwd: empty, userDir: userHome, trustStore: store });
  const pinned: number[] = [];
  const plain: number[] = [];
  const check: number[] = [];
  const firstUsePinned: number[] = [];
  const firstUsePlain: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so neither always pays for a cold cache.
    const both = [
      async () =>
        pinned.push(
          await timed(async () => assertLoaded(await discover({ cwd: project, userDir: home, trustStore: store }))),
        ),
      async () =>
        plain.push(
          await timed(async () => assertLoaded(await discover({ cwd: empty, userDir: userHome, trustStore: store }))),
        ),
    ];
    for (const work of round % 2 ? both.reverse() : both) await work();
    check.push(await timed(async () => void store.inspect(project)));
    const pin = store.inspect(library).pin!;
    const first = [
      async () =>
        firstUsePinned.push(
          await timed(
            async () =>
              void new KnowledgeBundle({ name: "wiki", dir: bundle, level: "project", pin }).search(
                "restart billing",
                8,
              ),
          ),
        ),
      async () =>
        firstUsePlain.push(
          await timed(
            async () =>
              void new KnowledgeBundle({ name: "wiki", dir: bundle, level: "user" }).search("restart billing", 8),
          ),
        ),
    ];
    for (const work of round % 2 ? first.reverse() : first) await work();
  }
  const megabytes = Math.round((KNOWLEDGE_FILES * KNOWLEDGE_FILE_BYTES) / 1e5) / 10;
  report("discovery", [
    {
      measure: `discover() of a trusted project, ${EXTENSIONS} TypeScript extensions each importing a helper, imported from the pinned bytes`,
      unit: "CPU ms",
      harnessx: median(pinned),
      anchor: median(plain),
      anchorName: "the same files as user extensions (no trust check, plain jiti)",
      aim: { on: "ratio", op: "<=", target: 1.3 },
    },
    {
      measure: `of which the trust check (digest of the ${EXTENSIONS * 2} files, pin kept)`,
      unit: "CPU ms",
      harnessx: median(check),
    },
    {
      measure: `knowledge first use through the pin, ${KNOWLEDGE_FILES} files / ${megabytes} MB (read, hash, compare)`,
      unit: "CPU ms",
      harnessx: median(firstUsePinned),
      anchor: median(firstUsePlain),
      anchorName: "the same bundle read from disk unchecked",
      aim: { on: "ratio", op: "<=", target: 2 },
    },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function assertLoaded(result: { extensions: unknown[] }): void {
  if (result.extensions.length < EXTENSIONS)
    throw new Error(`expected ${EXTENSIONS} extensions, got ${result.extensions.length}`);
}

/** CPU milliseconds (user + system) the work took. */
async function timed(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}
