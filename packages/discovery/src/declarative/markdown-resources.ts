import { isCommandName } from "@harnessx/core";
import { readResource, resourceFiles, type InvalidResource, type ResourceRoot } from "./resource-files.js";

/** A slash command (`commands/<name>.md`) or prompt template (`prompts/<name>.md`) read from its file. */
export interface MarkdownResource {
  readonly name: string;
  readonly description: string;
  readonly body: string;
  readonly path: string;
  readonly level: "user" | "project";
}

const DESCRIPTION_MAX = 1024;

/**
 * The commands or templates of the given folders, in order (user before project; a name found
 * again later is left out, so a project cannot shadow the user's own). The file name is the
 * name; the description is the frontmatter's `description`, else the body's first line.
 */
export function loadMarkdownResources(
  roots: readonly ResourceRoot[],
  kind: "command" | "prompt",
): { resources: MarkdownResource[]; invalid: InvalidResource[] } {
  const resources: MarkdownResource[] = [];
  const invalid: InvalidResource[] = [];
  for (const root of roots) {
    for (const file of resourceFiles(root, kind)) {
      const skip = (reason: string) => invalid.push({ kind, path: file.path, level: file.level, reason });
      if (!isCommandName(file.name)) {
        skip(`its file name "${file.name}" is not a name: 1-64 letters, digits, '_', '.', ':' or '-'`);
        continue;
      }
      const document = readResource(file, root.pin);
      if ("reason" in document) {
        skip(document.reason);
        continue;
      }
      const { description } = document.data;
      if (description !== undefined && (typeof description !== "string" || description.length > DESCRIPTION_MAX)) {
        skip(`field "description" must be a string of at most ${DESCRIPTION_MAX} characters`);
        continue;
      }
      const body = document.body.trim();
      if (body === "") {
        skip("its body is empty");
        continue;
      }
      const taken = resources.find((r) => r.name === file.name);
      if (taken) {
        skip(`the name "${file.name}" is already taken by ${taken.path}`);
        continue;
      }
      const firstLine = (body.split("\n", 1)[0] ?? "").replace(/^#+\s*/, "").slice(0, 120);
      resources.push({
        name: file.name,
        description: (description ?? firstLine).replace(/\s+/g, " ").trim(),
        body,
        path: file.path,
        level: file.level,
      });
    }
  }
  return { resources, invalid };
}
