import { Redactor, type RedactionOptions } from "@harnessx/core/extension";
import { redactAttributes, type AttributeValue as HarnessAttributeValue } from "@harnessx/core/tracing";
import type { AttributeValue } from "@opentelemetry/api";
import {
  defaultResource,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
  type DetectedResourceAttributes,
  type Resource,
  type ResourceDetector,
} from "@opentelemetry/resources";
import { ExporterError } from "../errors.js";

// Semantic-convention names (kept literal: `@opentelemetry/semantic-conventions` is not a peer of this package).
const SERVICE_NAME = "service.name";
const SERVICE_INSTANCE_ID = "service.instance.id";

/**
 * OpenTelemetry's detectors by their `OTEL_NODE_RESOURCE_DETECTORS` names, in merge order: a later
 * one wins a key both set. So `OTEL_RESOURCE_ATTRIBUTES` (env) overrides what is detected
 * (`host.name=node-7` beats the container's hostname), and the per-process UUID is only the fallback.
 */
const DETECTORS: ReadonlyArray<readonly [string, ResourceDetector]> = [
  ["serviceinstance", serviceInstanceIdDetector],
  ["process", processDetector],
  ["os", osDetector],
  ["host", hostDetector],
  ["env", envDetector],
];
/** Without `OTEL_NODE_RESOURCE_DETECTORS`: the NodeSDK's own default set, plus `service.instance.id`. */
const DEFAULT_DETECTORS = new Set(["serviceinstance", "process", "host", "env"]);

/**
 * `OTEL_SERVICE_NAME` and `OTEL_SERVICE_INSTANCE_ID` name one attribute each, so they win over the
 * same key in `OTEL_RESOURCE_ATTRIBUTES` (as the specification rules for the service name), and
 * they apply even when `OTEL_NODE_RESOURCE_DETECTORS=none`.
 */
const serviceVariablesDetector: ResourceDetector = {
  detect() {
    const name = process.env.OTEL_SERVICE_NAME?.trim();
    const instance = process.env.OTEL_SERVICE_INSTANCE_ID?.trim();
    return {
      attributes: {
        ...(name ? { [SERVICE_NAME]: name } : {}),
        ...(instance ? { [SERVICE_INSTANCE_ID]: instance } : {}),
      },
    };
  },
};

function chosenDetectors(): Set<string> {
  const variable = process.env.OTEL_NODE_RESOURCE_DETECTORS?.trim();
  if (!variable) return DEFAULT_DETECTORS;
  const names = variable
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const known = new Set(DETECTORS.map(([name]) => name));
  const unknown = names.filter((name) => name !== "all" && name !== "none" && !known.has(name));
  if (unknown.length > 0) {
    throw new ExporterError(
      "unsupported_resource_detector",
      `OTEL_NODE_RESOURCE_DETECTORS names ${unknown.map((n) => `"${n}"`).join(", ")}; use a comma-separated list of ${[...known, "all", "none"].join(", ")}`,
    );
  }
  if (names.includes("none")) return new Set();
  return names.includes("all") ? known : new Set(names);
}

/**
 * A detector whose text values pass `redactor` (sync or once resolved): the process detector
 * reports the command line, and a key passed as `--api-key=...` must not reach a collector.
 */
function redacting(detector: ResourceDetector, redactor: Redactor): ResourceDetector {
  const clean = (key: string, value: AttributeValue | undefined): AttributeValue | undefined =>
    value === undefined || value === null
      ? value
      : (redactAttributes({ [key]: value as HarnessAttributeValue }, redactor)[key] as AttributeValue);
  return {
    detect(config) {
      const detected = detector.detect(config);
      const attributes: DetectedResourceAttributes = {};
      for (const [key, value] of Object.entries(detected.attributes ?? {})) {
        attributes[key] =
          value instanceof Promise
            ? value.then(
                (resolved: AttributeValue | undefined) => clean(key, resolved),
                () => undefined,
              )
            : clean(key, value);
      }
      return { ...detected, attributes };
    },
  };
}

/** What `setupTelemetry` hands the NodeSDK: the base resource and the detectors merged over it. */
export interface TelemetryResource {
  /** The SDK's defaults (`telemetry.sdk.*`) and `service.name` from code. */
  readonly resource: Resource;
  /** Merged over `resource` in order; every text value redacted. */
  readonly resourceDetectors: ResourceDetector[];
}

/**
 * The resource every span of the process carries. `service.name`: `OTEL_SERVICE_NAME`, else
 * `OTEL_RESOURCE_ATTRIBUTES`, else `serviceName`. `service.instance.id`: `OTEL_SERVICE_INSTANCE_ID`,
 * else `OTEL_RESOURCE_ATTRIBUTES`, else a random UUID kept for the life of the process (what the
 * semantic conventions recommend). `host.name`: `OTEL_RESOURCE_ATTRIBUTES`, else the OS hostname.
 * `OTEL_NODE_RESOURCE_DETECTORS` chooses the detectors as it does for the NodeSDK; an unknown
 * name is an `ExporterError` ("unsupported_resource_detector").
 */
export function telemetryResource(serviceName: string, redaction?: RedactionOptions | false): TelemetryResource {
  const chosen = chosenDetectors();
  const redactor = new Redactor(redaction);
  const detectors = [
    ...DETECTORS.filter(([name]) => chosen.has(name)).map(([, detector]) => detector),
    serviceVariablesDetector,
  ];
  return {
    resource: defaultResource().merge(resourceFromAttributes({ [SERVICE_NAME]: serviceName })),
    resourceDetectors: detectors.map((detector) => redacting(detector, redactor)),
  };
}
