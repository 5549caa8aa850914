/** Base class of every error harnessx raises or reports. `code` is stable for scripts. */
export class HarnessError extends Error {
  /** Machine-readable cause (e.g. `provider_rate_limit`, `cancelled`), stable across releases: branch on it, not on the message. */
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Kinds of provider failure the engine reacts to differently. */
export type ProviderErrorKind =
  | "rate_limit"
  | "server"
  | "timeout"
  | "connection"
  | "context_overflow"
  | "reply_limit"
  | "invalid_request"
  | "auth"
  | "bad_response"
  | "script_exhausted"
  /** The model does not support a feature the request uses (a parameter, an input type): a fallback provider may. */
  | "unsupported"
  /** The model refused to answer; raised by a fallback chain that passed a refused reply over. */
  | "refusal";

/**
 * A model call failed. `retryable` failures (429, 5xx, timeouts, dropped
 * connections) are retried with backoff; `retryAfterMs` honours the server's hint.
 */
export class ProviderError extends HarnessError {
  /** What failed; `code` is `provider_<kind>`. */
  readonly kind: ProviderErrorKind;
  /** HTTP status of the failed response; absent when none arrived (timeouts, dropped connections, unusable replies). */
  readonly status?: number;
  /** Wait the server asked for before retrying (its `Retry-After`), in ms; absent without a hint. Capped by the retry's `maxDelayMs`. */
  readonly retryAfterMs?: number;
  /** For `reply_limit`: the largest reply budget the provider accepts. */
  readonly limit?: number;
  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; limit?: number; cause?: unknown } = {},
  ) {
    super(`provider_${kind}`, message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.limit = options.limit;
  }
  /** True for `rate_limit`, `server`, `timeout` and `connection`: the engine retries these with backoff. */
  get retryable(): boolean {
    return (
      this.kind === "rate_limit" || this.kind === "server" || this.kind === "timeout" || this.kind === "connection"
    );
  }
}

/** Classifies an HTTP status the way every provider adapter should. */
export function providerErrorKindForStatus(status: number | undefined): ProviderErrorKind {
  if (status === undefined) return "connection";
  if (status === 429) return "rate_limit";
  if (status === 408) return "timeout";
  if (status === 401 || status === 403) return "auth";
  if (status === 413) return "context_overflow";
  if (status >= 500) return "server";
  return "invalid_request";
}

/** A middleware stage threw, or broke a rule (changed an id, altered provider-owned content). */
export class MiddlewareError extends HarnessError {
  /** The middleware's `name` (else its class name). */
  readonly middleware: string;
  /** The stage that failed, e.g. `beforeLlmCall`, `wrapToolExecution`, `afterToolExecution`. */
  readonly stage: string;
  /** The extension that registered the middleware, when one did. */
  readonly extension?: string;
  constructor(middleware: string, stage: string, message: string, options?: { cause?: unknown; extension?: string }) {
    const of = options?.extension ? ` of extension "${options.extension}"` : "";
    super("middleware_failed", `middleware "${middleware}"${of} (${stage}): ${message}`, options);
    this.middleware = middleware;
    this.stage = stage;
    this.extension = options?.extension;
  }
}

/** An extension could not be installed, or a lifecycle callback failed the turn. */
export class ExtensionError extends HarnessError {
  /** Name of the extension at fault. */
  readonly extension: string;
  constructor(extension: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? "extension_failed", `extension "${extension}": ${message}`, options);
    this.extension = extension;
  }
}

/**
 * An extension broke the contribution contract: a malformed or colliding member, a
 * `contribute()` that returned a promise, an oversized prompt fragment. Raised before any
 * part of the extension's contribution is applied; `member` names the offending part
 * (`tool:search`, `prompt:guide`, `policy:no-rm`, `lifecycle:open-db`, or `contribution`).
 */
export class ExtensionContractError extends ExtensionError {
  /** The offending part, as `<kind>:<id>` (`tool:search`) or `contribution`. */
  readonly member: string;
  constructor(extension: string, member: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(extension, `${member}: ${message}`, { code: "extension_contract", ...options });
    this.member = member;
  }
}

/**
 * An extension tried to widen what the user allowed or to act for someone else: a member
 * attributed to another extension, a prompt fragment in the operator tier, a tool taking
 * over a name another owner registered.
 */
export class PrivilegeWideningError extends ExtensionContractError {
  constructor(extension: string, member: string, message: string) {
    super(extension, member, message, { code: "privilege_widening" });
  }
}

/** Extension names were empty or collided; raised before anything is installed. */
export class ExtensionConflictError extends HarnessError {
  constructor(message: string) {
    super("extension_conflict", message);
  }
}

/**
 * A discovered extension file could not be imported, threw while importing, or does not export
 * an extension. Discovery fails closed on it: a broken guard must not silently vanish.
 */
export class ExtensionLoadError extends HarnessError {
  /** Path of the extension file that failed to load. */
  readonly file: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super("extension_load", `cannot load extension ${file}: ${reason}`, options);
    this.file = file;
  }
}

/** The trust file is unreadable, not JSON, of another format or version, or holds a malformed record. */
export class TrustStoreError extends HarnessError {
  /** Path of the trust file; fix it, or delete it and trust your projects again. */
  readonly file: string;
  constructor(file: string, problem: string, options?: { cause?: unknown }) {
    super("trust_store", `trust file ${file}: ${problem}`, options);
    this.file = file;
  }
}

/** A project's trusted surfaces could not be digested (too many files, unreadable entries). */
export class ProjectDigestError extends HarnessError {
  /** The project directory that could not be digested. */
  readonly dir: string;
  constructor(dir: string, problem: string, options?: { cause?: unknown }) {
    super("project_digest", `cannot digest ${dir}: ${problem}`, options);
    this.dir = dir;
  }
}

/**
 * A file of a trusted project that trust does not vouch for: edited, added, removed or swapped
 * since `discover()` pinned the project, or a symlink (never followed). It is neither read nor run.
 */
export class TrustedFileError extends HarnessError {
  /** The project directory (its real path). */
  readonly dir: string;
  /** The file, as an absolute path. */
  readonly path: string;
  constructor(dir: string, path: string, problem: string, remedy: string) {
    super("trusted_file", `${path} ${problem}; it is not used: ${remedy}`);
    this.dir = dir;
    this.path = path;
  }
}

/** Session state could not be saved (not JSON-compatible) or loaded (wrong version or shape). */
export class SessionStateError extends HarnessError {
  /** JSON path of the offending value in the state (e.g. `$.messages[3]`); absent when no single value is at fault. */
  readonly path?: string;
  constructor(message: string, path?: string, options?: { cause?: unknown }) {
    super("session_state", message, options);
    this.path = path;
  }
}

/** A tool registration was refused (duplicate without `replace`, bad schema, bad name). */
export class ToolRegistrationError extends HarnessError {
  constructor(message: string) {
    super("tool_registration", message);
  }
}

/** An option was out of range or of the wrong type. */
export class ConfigError extends HarnessError {
  constructor(message: string) {
    super("invalid_config", message);
  }
}

/** The loop could not go on (a recovery ran out of attempts, a reply was unusable). */
export class RunError extends HarnessError {}

/** The input named a slash command that no extension registered. */
export class UnknownCommandError extends HarnessError {
  /** The command name as typed, without the slash. */
  readonly command: string;
  constructor(command: string, known: readonly string[]) {
    super(
      "unknown_command",
      `unknown command "/${command}"; ${known.length ? `the commands are ${known.map((k) => `/${k}`).join(", ")}` : "no command is registered"} (agent.commands() lists them)`,
    );
    this.command = command;
  }
}

/** A prompt template was asked for that does not exist, or without a parameter it needs. */
export class TemplateError extends HarnessError {
  /** Name of the template asked for. */
  readonly template: string;
  /** The missing parameter, when one is missing. */
  readonly parameter?: string;
  constructor(template: string, message: string, parameter?: string) {
    super("template", message);
    this.template = template;
    if (parameter !== undefined) this.parameter = parameter;
  }
}

/**
 * A feature needs a package the app did not install: an optional peer (a provider's SDK, the AWS
 * SDK, the OpenTelemetry SDK, LangSmith), which the app installs only for the features it uses.
 */
export class MissingPackageError extends HarnessError {
  /** The package to install, e.g. `openai`. */
  readonly packageName: string;
  /** What needs it, e.g. `OpenAIProvider` or `trace push --to langsmith`. */
  readonly feature: string;
  /** The command that installs it (and whatever else the feature needs), e.g. `npm install openai@^6.30.1`. */
  readonly install: string;
  /** `specs`: what the feature needs, as `npm install` takes them (`openai@^6.30.1`). */
  constructor(packageName: string, feature: string, specs: readonly string[], options?: { cause?: unknown }) {
    const install = `npm install ${specs.join(" ")}`;
    super("missing_package", `${feature} needs the "${packageName}" package: ${install}`, options);
    this.packageName = packageName;
    this.feature = feature;
    this.install = install;
  }
}

/** The run was cancelled through its AbortSignal. */
export class CancelledError extends HarnessError {
  constructor(message = "the run was cancelled") {
    super("cancelled", message);
  }
}

/** Wraps any thrown value into an Error so reports always have a message. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
}
