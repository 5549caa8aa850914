// What each entry of the package loads, observed in a fresh process: the OpenTelemetry extension needs
// `@opentelemetry/api` only (the rule for libraries), and no entry loads an optional peer it does not use.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { packagesLoadedBy } from "./test-support/loaded-packages.js";

const here = new URL(".", import.meta.url).pathname;
const OTEL_SDK = ["@opentelemetry/sdk-node", "@opentelemetry/sdk-trace-base", "@opentelemetry/sdk-trace"];

function opentelemetry(loaded: string[]): string[] {
  return loaded.filter((name) => name.startsWith("@opentelemetry/"));
}

function noneOf(loaded: string[], unwanted: string[]): string[] {
  return loaded.filter((name) => unwanted.includes(name));
}

describe("each entry of @harnessx/exporters loads only what it needs", () => {
  test("/otel: @opentelemetry/api and nothing else of OpenTelemetry; no langsmith", async () => {
    const loaded = await packagesLoadedBy("@harnessx/exporters/otel", here);
    assert.deepEqual(opentelemetry(loaded), ["@opentelemetry/api"]);
    assert.deepEqual(noneOf(loaded, ["langsmith"]), []);
  });

  test("/otel-setup: the SDK (its CommonJS requires seen too), no langsmith", async () => {
    const loaded = await packagesLoadedBy("@harnessx/exporters/otel-setup", here);
    for (const name of [...OTEL_SDK, "@opentelemetry/otlp-exporter-base"])
      assert.ok(loaded.includes(name), `${name} loaded`);
    assert.deepEqual(noneOf(loaded, ["langsmith"]), []);
  });

  test("/langsmith: langsmith and @opentelemetry/api (the caller's sampling decision), no OpenTelemetry SDK", async () => {
    const loaded = await packagesLoadedBy("@harnessx/exporters/langsmith", here);
    assert.ok(loaded.includes("langsmith"));
    assert.deepEqual(opentelemetry(loaded), ["@opentelemetry/api"]);
  });

  test("/convert: OpenTelemetry's serializers and exporter base, neither the trace SDK nor langsmith", async () => {
    const loaded = await packagesLoadedBy("@harnessx/exporters/convert", here);
    assert.ok(loaded.includes("@opentelemetry/otlp-transformer"));
    assert.deepEqual(noneOf(loaded, [...OTEL_SDK, "langsmith"]), []);
  });

  test("the root entry is every entry at once: the SDK and langsmith", async () => {
    const loaded = await packagesLoadedBy("@harnessx/exporters", here);
    assert.deepEqual(noneOf(loaded, [...OTEL_SDK, "langsmith"]).sort(), [...OTEL_SDK, "langsmith"].sort());
  });
});
