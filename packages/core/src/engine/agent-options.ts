import type { ExtensionEntry } from "../extensions/extension.js";
import type { MiddlewarePipeline } from "../middleware/pipeline.js";
import type { PermissionManager } from "../permissions/permission-manager.js";
import type { RedactionOptions } from "../redact/rules.js";
import type { Tool } from "../tools/tool.js";
import type { ConfigOptions } from "./config.js";
import type { DurableOptions } from "../durable/durable-store.js";
import type { RunMetadata } from "./run-labels.js";

/** What `new Agent(options)` takes: the provider, settings (each with a default), and the parts to start with. */
export interface AgentOptions extends ConfigOptions {
  /** Tools offered from the start, before extensions add theirs; two with one name throw. */
  tools?: readonly Tool[];
  /**
   * The redaction policy of everything this agent's extensions write or send (recordings,
   * bundled spills, exported spans): default keys, patterns and secret shapes; `false` for none.
   */
  redact?: RedactionOptions | false;
  /** Extensions, classes, factories, or what `discover()` loaded; installed by `priority`, then order. */
  extensions?: readonly ExtensionEntry[];
  /** A pipeline to use (and share); extensions add their middleware to it. Default: a new empty one. */
  middleware?: MiddlewarePipeline;
  /** The user's rules over which tools run, ask or are denied. Default: a manager whose default is `allow`. */
  permissions?: PermissionManager;
  /** Id of the session, kept in traces and saved sessions. Default: a generated `session_…` id. */
  sessionId?: string;
  /**
   * Makes runs durable: each phase boundary (model reply, tool start and raw outcome, approvals,
   * a snapshot at the top of each step) is committed to `store` before the run goes on, so
   * `agent.resume(runId)` can continue a run whose process died. Default: off.
   */
  durable?: DurableOptions;
  /** Metadata every run of this agent carries (a release, an environment); a run's own `metadata` goes over it. */
  metadata?: RunMetadata;
  /** Tags every run of this agent carries; a run's own `tags` are added after them. */
  tags?: readonly string[];
}
