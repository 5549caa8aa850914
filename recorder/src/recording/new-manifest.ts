import { hostname } from "node:os";
import { FRAMEWORK_ATTRIBUTE } from "@harnessx/core";
import type { AnyHookContext, ExtensionSummary, Redactor } from "@harnessx/core/extension";
import type { RunManifest } from "../format/event.js";
import { producerVersions } from "../format/layout.js";
import { linkOf, serviceName } from "../format/run-origin.js";
import { emptySummary } from "../format/run-summary.js";

/**
 * The run.json of a run that starts being recorded: who runs it, where and with what (the
 * agent's configuration, tools and extensions), redacted by the agent's policy as events are.
 * `customRedact` says whether a custom `redact(event)` also runs on every event.
 */
export function newManifest(
  start: AnyHookContext & { event: "agent_start" },
  redactor: Redactor,
  customRedact: boolean,
): RunManifest {
  const agent = start.info;
  return {
    format: "harnessx.run",
    v: 1,
    runId: start.data.runId,
    traceId: start.span?.traceId,
    runSpanId: start.span?.spanId ?? "",
    ...linkOf(start),
    agent: redactor.redactText(agent.name),
    ...frameworkOf(start, redactor),
    sessionId: redactor.redactText(agent.sessionId),
    models: [],
    status: "running",
    startedAt: start.timestamp,
    endedAt: null,
    producer: producerVersions(),
    pid: process.pid,
    hostname: hostname(),
    service: redactor.redactText(serviceName(agent.name)),
    ...labelsOf(start, redactor),
    config: redactor.redact(agent.config, "config", []),
    provider: redactor.redactText(agent.provider),
    tools: redactor.redact(agent.tools, "tools", []) as RunManifest["tools"],
    extensions: redactor.redact(agent.extensions, "extensions", []) as ExtensionSummary[],
    summary: emptySummary(),
    redaction: describeRedaction(redactor, customRedact),
    artifacts: [],
  };
}

/** The policy recorded with a run: what was redacted at the source, and whether a custom function ran. */
function describeRedaction(redactor: Redactor, custom: boolean): RunManifest["redaction"] {
  const description = redactor.describe();
  return description === "off" ? "off" : { ...description, custom };
}

/** The run's metadata and tags, redacted by the policy every event goes through; nothing when the run has none. */
function labelsOf(
  start: AnyHookContext & { event: "agent_start" },
  redactor: Redactor,
): Pick<RunManifest, "metadata" | "tags"> {
  const { metadata, tags } = start.data;
  return {
    ...(metadata ? { metadata: redactor.redact({ ...metadata }, "metadata", []) as RunManifest["metadata"] } : {}),
    ...(tags ? { tags: tags.map((tag) => redactor.redactText(tag)) } : {}),
  };
}

/** The framework a hosted run names (`RunHost`), redacted; nothing for harnessx's own runs. */
function frameworkOf(start: AnyHookContext & { event: "agent_start" }, redactor: Redactor): { framework?: string } {
  const framework = start.data.attributes?.[FRAMEWORK_ATTRIBUTE];
  return typeof framework === "string" ? { framework: redactor.redactText(framework) } : {};
}
