import { ConfigError } from "../errors.js";
import { deepFreeze } from "../util/deep-freeze.js";

/** One value of a run's metadata: what every backend can index and filter on. */
export type RunMetadataValue = string | number | boolean;

/**
 * Application facts attached to a run (user id, ticket, release, environment), as LangSmith,
 * Langfuse and Phoenix let their users attach them: recorded in `run.json`, indexed by the run
 * catalog (`trace ls --where key=value`), a column of the `runs` table, and set on the run's span.
 */
export type RunMetadata = Readonly<Record<string, RunMetadataValue>>;

/** A run's metadata and tags, once checked and merged with the agent's defaults. */
export interface RunLabels {
  /** The run's metadata: the agent's, then the run's over it, key by key. */
  readonly metadata?: RunMetadata;
  /** The run's tags: the agent's, then the run's, each once, in that order. */
  readonly tags?: readonly string[];
}

/** How much metadata and how many tags a run may carry: labels find runs, they do not hold content. */
export const RUN_LABEL_LIMITS = {
  /** Metadata entries per run. */
  entries: 64,
  /** Characters of a metadata key or a tag. */
  nameChars: 128,
  /** Characters of a string metadata value. */
  valueChars: 1024,
  /** Tags per run. */
  tags: 64,
} as const;

/** `metadata` and `tags`, checked: a `ConfigError` saying what is wrong, else the frozen labels. */
export function checkRunLabels(labels: { metadata?: unknown; tags?: unknown }, where: string): RunLabels {
  const out: { metadata?: RunMetadata; tags?: readonly string[] } = {};
  if (labels.metadata !== undefined) out.metadata = checkMetadata(labels.metadata, where);
  if (labels.tags !== undefined) out.tags = checkTags(labels.tags, where);
  return deepFreeze(out);
}

/** The agent's labels with a run's over them (both checked). */
export function mergeRunLabels(agent: RunLabels, run: RunLabels): RunLabels {
  const metadata = agent.metadata || run.metadata ? { ...agent.metadata, ...run.metadata } : undefined;
  const tags = agent.tags || run.tags ? [...new Set([...(agent.tags ?? []), ...(run.tags ?? [])])] : undefined;
  if (metadata && Object.keys(metadata).length > RUN_LABEL_LIMITS.entries)
    throw new ConfigError(`a run's metadata holds more than ${RUN_LABEL_LIMITS.entries} entries with the agent's`);
  if (tags && tags.length > RUN_LABEL_LIMITS.tags)
    throw new ConfigError(`a run carries more than ${RUN_LABEL_LIMITS.tags} tags with the agent's`);
  return deepFreeze({ ...(metadata ? { metadata } : {}), ...(tags ? { tags } : {}) });
}

function checkName(name: string, what: string, where: string): void {
  if (name.length === 0 || name.length > RUN_LABEL_LIMITS.nameChars || name.trim() !== name)
    throw new ConfigError(
      `${where}: ${what} ${JSON.stringify(name.slice(0, 40))} must be 1 to ${RUN_LABEL_LIMITS.nameChars} characters, without surrounding spaces`,
    );
}

function checkMetadata(metadata: unknown, where: string): RunMetadata {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    throw new ConfigError(`${where}: metadata must be an object of strings, numbers and booleans`);
  const entries = Object.entries(metadata);
  if (entries.length > RUN_LABEL_LIMITS.entries)
    throw new ConfigError(`${where}: metadata holds ${entries.length} entries, more than ${RUN_LABEL_LIMITS.entries}`);
  const checked: Record<string, RunMetadataValue> = {};
  for (const [key, value] of entries) {
    checkName(key, "a metadata key", where);
    if (typeof value === "string") {
      if (value.length > RUN_LABEL_LIMITS.valueChars)
        throw new ConfigError(
          `${where}: metadata ${key} is ${value.length} characters, more than ${RUN_LABEL_LIMITS.valueChars}`,
        );
    } else if (!(typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))))
      throw new ConfigError(`${where}: metadata ${key} must be a string, a finite number or a boolean`);
    // defineProperty, so a key named `__proto__` is an entry like any other.
    Object.defineProperty(checked, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return checked;
}

function checkTags(tags: unknown, where: string): readonly string[] {
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string"))
    throw new ConfigError(`${where}: tags must be an array of strings`);
  const unique = [...new Set(tags as string[])];
  if (unique.length > RUN_LABEL_LIMITS.tags)
    throw new ConfigError(`${where}: ${unique.length} tags, more than ${RUN_LABEL_LIMITS.tags}`);
  for (const tag of unique) checkName(tag, "a tag", where);
  return unique;
}
