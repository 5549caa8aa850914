import assert from "node:assert/strict";
import { test } from "node:test";
import { serviceNameFromEnv } from "./service-name.js";

test("the service name comes from OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES' service.name, else nothing", () => {
  assert.equal(
    serviceNameFromEnv({ OTEL_SERVICE_NAME: " checkout ", OTEL_RESOURCE_ATTRIBUTES: "service.name=other" }),
    "checkout",
  );
  assert.equal(
    serviceNameFromEnv({ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod, service.name=support%20bot" }),
    "support bot",
  );
  assert.equal(
    serviceNameFromEnv({ OTEL_RESOURCE_ATTRIBUTES: "service.name=%E0%A4%A" }),
    "%E0%A4%A",
    "a value that does not decode is kept as written",
  );
  assert.equal(serviceNameFromEnv({ OTEL_RESOURCE_ATTRIBUTES: "host.name=a" }), undefined);
  assert.equal(serviceNameFromEnv({}), undefined);
});
