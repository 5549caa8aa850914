import { usageError } from "../errors.js";

/** What `--tag` and `--where` ask of a run's labels: every tag, and each metadata key at its value. */
export interface LabelFilters {
  /** Tags the run must all carry. */
  tags: readonly string[];
  /** Metadata entries the run must hold, compared as text (`--where ticket=981` matches the number 981). */
  where: readonly (readonly [string, string])[];
}

/** Commander's collector for a repeatable option. */
export const repeated = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--tag` and `--where` values, checked; undefined when neither was given. */
export function labelFilters(tags: unknown, where: unknown): LabelFilters | undefined {
  const tagList = Array.isArray(tags) ? tags.map(String) : [];
  const whereList = Array.isArray(where) ? where.map(String) : [];
  if (tagList.length === 0 && whereList.length === 0) return undefined;
  for (const tag of tagList) if (tag.length === 0) throw usageError("--tag needs a tag");
  const pairs = whereList.map((item): [string, string] => {
    const eq = item.indexOf("=");
    if (eq <= 0) throw usageError(`--where takes key=value (a metadata key, then its value), got "${item}"`);
    return [item.slice(0, eq), item.slice(eq + 1)];
  });
  return { tags: tagList, where: pairs };
}

/** Whether a run's metadata and tags pass the filters. */
export function labelsMatch(
  run: { metadata: Readonly<Record<string, unknown>>; tags: readonly string[] },
  filters: LabelFilters,
): boolean {
  return (
    filters.tags.every((tag) => run.tags.includes(tag)) &&
    filters.where.every(([key, value]) => Object.hasOwn(run.metadata, key) && String(run.metadata[key]) === value)
  );
}
