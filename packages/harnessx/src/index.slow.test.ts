// The one import users write traces through the OpenTelemetry API only; the SDK wiring, LangSmith and
// the converters (optional peers) load from their subpaths.
import assert from "node:assert/strict";
import { test } from "node:test";
import { packagesLoadedBy } from "@harnessx/exporters/test-support";

const here = new URL(".", import.meta.url).pathname;

test('import "harnessx" loads @opentelemetry/api and none of the optional peers; its subpaths do', async () => {
  const loaded = await packagesLoadedBy("harnessx", here);
  assert.deepEqual(
    loaded.filter((name) => name.startsWith("@opentelemetry/") || name === "langsmith"),
    ["@opentelemetry/api"],
  );
  assert.ok((await packagesLoadedBy("harnessx/otel-setup", here)).includes("@opentelemetry/sdk-node"));
  assert.ok((await packagesLoadedBy("harnessx/langsmith", here)).includes("langsmith"));
  assert.ok((await packagesLoadedBy("harnessx/convert", here)).includes("@opentelemetry/otlp-transformer"));
});
