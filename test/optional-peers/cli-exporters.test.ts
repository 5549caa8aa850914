// The `trace` CLI installed without the OpenTelemetry parts and `langsmith` (optional peers): its
// commands run, and `convert` / `push` fail with one line naming what to install (exit 1).
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { isolatedPackages, runModule, runNode } from "../support/isolated-package.js";

const OTEL = [
  "@opentelemetry/core",
  "@opentelemetry/otlp-exporter-base",
  "@opentelemetry/otlp-transformer",
  "@opentelemetry/resources",
];
// The exporters are copied too: the converters load the peers from there.
const app = isolatedPackages(
  ["cli", "exporters"],
  [...OTEL, "langsmith", "@opentelemetry/sdk-trace-base", "@opentelemetry/sdk-node"],
);
after(() => rmSync(app, { recursive: true, force: true }));
const trace = (...args: string[]) =>
  runNode(app, ["node_modules/@harnessx/cli/bin/trace.js", ...args], { LANGSMITH_API_KEY: "lsv2-unused" });

before(() => {
  const recorded = runModule(
    app,
    `
    import { Agent, ScriptedProvider } from "@harnessx/core";
    import { FlightRecorderExtension } from "@harnessx/recorder";
    const agent = new Agent({ name: "a", provider: new ScriptedProvider([{ text: "hi" }]), extensions: [new FlightRecorderExtension()] });
    await agent.run("hello");
    await agent.close();
  `,
  );
  assert.equal(recorded.status, 0, recorded.stderr);
});

test("trace ls and show run without the optional peers", () => {
  assert.equal(trace("ls").status, 0);
  const shown = trace("show", "last");
  assert.equal(shown.status, 0, shown.stderr);
});

const install =
  "npm install @opentelemetry/core@^2.12.0 @opentelemetry/resources@^2.12.0 @opentelemetry/otlp-transformer@^0.223.0 @opentelemetry/otlp-exporter-base@^0.223.0";
for (const [args, message] of [
  [
    ["convert", "last", "--to", "otlp"],
    `trace convert needs the "@opentelemetry/otlp-transformer" package: ${install}`,
  ],
  [
    ["convert", "last", "--to", "chrome"],
    `trace convert needs the "@opentelemetry/otlp-transformer" package: ${install}`,
  ],
  [
    ["push", "last", "--otlp", "http://127.0.0.1:9/v1/traces"],
    `trace push --otlp needs the "@opentelemetry/otlp-transformer" package: ${install}`,
  ],
  [
    ["push", "last", "--langsmith"],
    'trace push --langsmith needs the "langsmith" package: npm install langsmith@^0.12.0',
  ],
] as const) {
  test(`trace ${args.join(" ")}: exit 1 and one line naming the package and the command`, () => {
    const out = trace(...args);
    assert.equal(out.status, 1, out.stderr);
    assert.equal(out.stderr, `trace: ${message}\n`);
    assert.equal(out.stdout, "");
  });
}
