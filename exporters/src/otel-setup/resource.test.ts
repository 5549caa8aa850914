// The resource a collector receives with every span: service.name, service.instance.id and host.name
// from the environment when it names them, else from code, a per-process UUID and the OS.
import assert from "node:assert/strict";
import { hostname } from "node:os";
import { describe, test } from "node:test";
import { setupTelemetry, type TelemetryOptions } from "./setup.js";
import { ExporterError } from "../errors.js";
import { startOtlpReceiver } from "../test-support/otlp-receiver.js";
import { withOtelEnv } from "../test-support/otel-env.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The resource attributes a collector received with one span sent under `env`. */
async function resourceSent(
  env: Record<string, string>,
  options: TelemetryOptions = {},
): Promise<Record<string, unknown>> {
  const receiver = await startOtlpReceiver();
  try {
    await withOtelEnv(env, async () => {
      const telemetry = setupTelemetry({
        serviceName: "from-code",
        url: receiver.url,
        protocol: "http/protobuf",
        ...options,
      });
      telemetry.tracer.startSpan("one").end();
      assert.deepEqual(await telemetry.shutdown(), { flushed: true, dropped: 0 });
    });
    assert.equal(receiver.resources.length, 1);
    return receiver.resources[0];
  } finally {
    await receiver.close();
  }
}

describe("the resource without OTEL_* resource variables", () => {
  test("service.name from code, host.name from the OS, service.instance.id a UUID kept for the process", async () => {
    const first = await resourceSent({});
    const second = await resourceSent({}, { serviceName: "other" });
    assert.equal(first["service.name"], "from-code");
    assert.equal(second["service.name"], "other");
    assert.equal(first["host.name"], hostname());
    assert.match(String(first["service.instance.id"]), UUID);
    assert.equal(
      second["service.instance.id"],
      first["service.instance.id"],
      "one id per process, whatever sets telemetry up",
    );
    assert.equal(first["telemetry.sdk.language"], "nodejs");
    assert.equal(first["process.pid"], process.pid);
  });
});

describe("the resource from the environment", () => {
  test("OTEL_RESOURCE_ATTRIBUTES names all three, and wins over what is detected", async () => {
    const resource = await resourceSent({
      OTEL_RESOURCE_ATTRIBUTES:
        "service.name=checkout,service.instance.id=pod-7f9c,host.name=node-7,deployment.environment.name=prod",
    });
    assert.deepEqual(
      [
        resource["service.name"],
        resource["service.instance.id"],
        resource["host.name"],
        resource["deployment.environment.name"],
      ],
      ["checkout", "pod-7f9c", "node-7", "prod"],
    );
  });

  test("OTEL_SERVICE_NAME and OTEL_SERVICE_INSTANCE_ID win over OTEL_RESOURCE_ATTRIBUTES and code", async () => {
    const resource = await resourceSent({
      OTEL_SERVICE_NAME: "billing",
      OTEL_SERVICE_INSTANCE_ID: "billing-3",
      OTEL_RESOURCE_ATTRIBUTES: "service.name=checkout,service.instance.id=pod-7f9c",
    });
    assert.equal(resource["service.name"], "billing");
    assert.equal(resource["service.instance.id"], "billing-3");
    assert.equal(resource["host.name"], hostname());
  });

  test("OTEL_NODE_RESOURCE_DETECTORS chooses the detectors; the service variables still apply with none", async () => {
    const none = await resourceSent({ OTEL_NODE_RESOURCE_DETECTORS: "none", OTEL_SERVICE_INSTANCE_ID: "worker-1" });
    assert.deepEqual(
      [none["service.name"], none["service.instance.id"], none["host.name"], none["process.pid"]],
      ["from-code", "worker-1", undefined, undefined],
    );
    const hostOnly = await resourceSent({ OTEL_NODE_RESOURCE_DETECTORS: "host" });
    assert.deepEqual(
      [hostOnly["host.name"], hostOnly["process.pid"], hostOnly["service.instance.id"]],
      [hostname(), undefined, undefined],
    );
  });

  test("an unknown detector name is an ExporterError naming it and the known ones", async () => {
    await withOtelEnv({ OTEL_NODE_RESOURCE_DETECTORS: "host,gcp" }, async () => {
      assert.throws(
        () => setupTelemetry({ url: "http://127.0.0.1:9/v1/traces" }),
        (error: unknown) =>
          error instanceof ExporterError &&
          error.code === "unsupported_resource_detector" &&
          /"gcp"/.test(error.message) &&
          /serviceinstance/.test(error.message),
      );
    });
  });
});

describe("the resource passes redaction", () => {
  test("a key on the command line reaches the collector redacted; redact: false sends it as detected", async () => {
    const secret = "sk-live-4eC39HqLyjWDarjtT1zdp7dc";
    process.argv.push(`--api-key=${secret}`);
    try {
      const redacted = await resourceSent({});
      const args = redacted["process.command_args"] as string[];
      assert.ok(
        args.some((arg) => arg.startsWith("--api-key=[REDACTED")),
        `command args: ${args.join(" ")}`,
      );
      assert.ok(!JSON.stringify(redacted).includes(secret));
      const raw = await resourceSent({}, { redact: false });
      assert.ok((raw["process.command_args"] as string[]).includes(`--api-key=${secret}`));
    } finally {
      process.argv.pop();
    }
  });

  test("an option's value as the next argument (--password v), and OTEL_RESOURCE_ATTRIBUTES named like secrets, are redacted", async () => {
    const password = "Tr0ub4dor-argv-77";
    process.argv.push("--password", password, "--port", "8080");
    try {
      const resource = await resourceSent({
        OTEL_RESOURCE_ATTRIBUTES:
          "deployment.environment.name=prod,db.password=Hunter2-attr,service.api_key=plainvalue",
      });
      const args = resource["process.command_args"] as string[];
      assert.deepEqual(args.slice(-4), ["--password", "[REDACTED]", "--port", "8080"]);
      assert.equal(resource["db.password"], "[REDACTED]");
      assert.equal(resource["service.api_key"], "[REDACTED]");
      assert.equal(resource["deployment.environment.name"], "prod");
      assert.ok(!JSON.stringify(resource).includes(password) && !JSON.stringify(resource).includes("Hunter2-attr"));
    } finally {
      process.argv.splice(-4);
    }
  });
});
