import { readResource, resourceFiles, type InvalidResource, type ResourceRoot } from "./resource-files.js";

/** A skill: a named instruction the model loads on demand with `load_skill`. */
export interface Skill {
  /** The frontmatter `name`: one line, at most `SKILL_NAME_MAX` characters, unique among the skills loaded. */
  readonly name: string;
  /** The frontmatter `description`, trimmed: at most `SKILL_DESCRIPTION_MAX` characters; shown in the catalog on one line. */
  readonly description: string;
  /** The `SKILL.md` it was read from. */
  readonly path: string;
  /** The trust level of the root it was found in. */
  readonly level: "user" | "project";
  /** Read once at discovery (a file changed later cannot slip past project trust); never in the system prompt. */
  readonly body: string;
}

/** The longest skill `name`, in characters (names and descriptions enter the system prompt's catalog). */
export const SKILL_NAME_MAX = 64;
/** The longest skill `description`, in characters, before trimming. */
export const SKILL_DESCRIPTION_MAX = 1024;

/** Line breaks or control characters would let a name or description write its own lines into the catalog. */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

/**
 * The skills of the given folders, in order (user before project): `skills/<folder>/SKILL.md`
 * with `name` (at most 64 characters) and `description` (at most 1,024) in YAML frontmatter.
 * A file that breaks a rule, or reuses a name found earlier, is left out with its reason.
 */
export function loadSkills(roots: readonly ResourceRoot[]): {
  /** The valid skills, in the order found. */
  skills: Skill[];
  /** The files left out, each with the reason. */
  invalid: InvalidResource[];
} {
  const skills: Skill[] = [];
  const invalid: InvalidResource[] = [];
  for (const root of roots) {
    for (const file of resourceFiles(root, "skill")) {
      const skip = (reason: string) => invalid.push({ kind: "skill", path: file.path, level: file.level, reason });
      const document = readResource(file, root.pin);
      if ("reason" in document) {
        skip(document.reason);
        continue;
      }
      const { name, description } = document.data;
      const problem =
        fieldProblem("name", name, SKILL_NAME_MAX, true) ??
        fieldProblem("description", description, SKILL_DESCRIPTION_MAX, false);
      if (problem) {
        skip(problem);
        continue;
      }
      const taken = skills.find((s) => s.name === name);
      if (taken) {
        skip(`field "name": "${name as string}" is already the name of ${taken.path}`);
        continue;
      }
      skills.push({
        name: name as string,
        description: (description as string).trim(),
        path: file.path,
        level: file.level,
        body: document.body.trim(),
      });
    }
  }
  return { skills, invalid };
}

function fieldProblem(field: string, value: unknown, max: number, singleLine: boolean): string | undefined {
  if (value === undefined || value === null) return `field "${field}" is missing from the frontmatter`;
  if (typeof value !== "string" || value.trim() === "") return `field "${field}" must be a non-empty string`;
  if (value.length > max) return `field "${field}" is ${value.length} characters; the limit is ${max}`;
  if (singleLine && CONTROL.test(value)) return `field "${field}" must be one line without control characters`;
  return undefined;
}
