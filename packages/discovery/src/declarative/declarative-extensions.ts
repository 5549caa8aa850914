import { substituteArguments } from "@harnessx/core";
import { defineExtension, type Extension } from "@harnessx/core/extension";
import type { KnowledgeSource } from "../knowledge/knowledge-bundle.js";
import { resourceFolder, type InvalidResource, type ResourceKind, type ResourceRoot } from "./resource-files.js";
import { loadMarkdownResources, type MarkdownResource } from "./markdown-resources.js";
import { knowledgeExtension } from "../knowledge/knowledge-extension.js";
import { resourceFiles } from "./resource-files.js";
import { skillsExtension } from "./skills-extension.js";
import { loadSkills } from "./skills.js";

/** Slash commands from Markdown files: the body, with the arguments in place, becomes the user message. */
export function commandsExtension(commands: readonly MarkdownResource[]): Extension {
  return defineExtension({
    name: "commands",
    install(ctx) {
      for (const command of commands) {
        ctx.registerCommand(command.name, {
          description: command.description,
          source: command.path,
          handler: (args) => substituteArguments(command.body, args),
        });
      }
    },
  });
}

/** Prompt templates from Markdown files, rendered with `agent.templates.render(name, params)`. */
export function templatesExtension(templates: readonly MarkdownResource[]): Extension {
  return defineExtension({
    name: "prompt-templates",
    install(ctx) {
      for (const template of templates)
        ctx.registerTemplate({
          name: template.name,
          description: template.description,
          body: template.body,
          source: template.path,
        });
    },
  });
}

/** What the data-only folders of the given roots hold, as extensions (one per surface that has files), and what was left out. */
export interface DeclarativeResources {
  /** The extensions to install, in the order skills, commands, prompt templates, knowledge. */
  extensions: Array<{
    /** The extension built from the files. */
    extension: Extension;
    /** `project` when any of its files came from the project root, else `user`. */
    level: "user" | "project";
    /** The folder(s) its files came from, comma-separated. */
    source: string;
  }>;
  /** Files and folders left out, each with the reason. */
  invalid: InvalidResource[];
}

/**
 * Reads `skills/`, `commands/`, `prompts/` and `knowledge/` of each root (user first) into
 * the `skills`, `commands`, `prompt-templates` and `knowledge` extensions. Each extension's level is the least trusted of
 * its files' (a project file makes it `project`), its source the folder(s) it read.
 */
export function loadDeclarativeResources(roots: readonly ResourceRoot[]): DeclarativeResources {
  const skills = loadSkills(roots);
  const commands = loadMarkdownResources(roots, "command");
  const templates = loadMarkdownResources(roots, "prompt");
  const extensions: DeclarativeResources["extensions"] = [];
  const origin = (items: ReadonlyArray<{ level: string }>, kind: ResourceKind) => ({
    level: items.some((i) => i.level === "project") ? ("project" as const) : ("user" as const),
    source: roots
      .filter((r) => items.some((i) => i.level === r.level))
      .map((r) => resourceFolder(r.dir, kind))
      .join(", "),
  });
  if (skills.skills.length)
    extensions.push({ extension: skillsExtension(skills.skills), ...origin(skills.skills, "skill") });
  if (commands.resources.length)
    extensions.push({ extension: commandsExtension(commands.resources), ...origin(commands.resources, "command") });
  if (templates.resources.length)
    extensions.push({ extension: templatesExtension(templates.resources), ...origin(templates.resources, "prompt") });
  const knowledge = loadKnowledgeSources(roots);
  if (knowledge.sources.length)
    extensions.push({ extension: knowledgeExtension(knowledge.sources), ...origin(knowledge.sources, "knowledge") });
  return { extensions, invalid: [...skills.invalid, ...commands.invalid, ...templates.invalid, ...knowledge.invalid] };
}

/** The knowledge bundles of the roots (user first); a name found again later is left out. */
function loadKnowledgeSources(roots: readonly ResourceRoot[]): {
  sources: KnowledgeSource[];
  invalid: InvalidResource[];
} {
  const sources: KnowledgeSource[] = [];
  const invalid: InvalidResource[] = [];
  for (const root of roots) {
    for (const folder of resourceFiles(root, "knowledge")) {
      const taken = sources.find((s) => s.name === folder.name);
      if (taken)
        invalid.push({
          kind: "knowledge",
          path: folder.path,
          level: folder.level,
          reason: `the bundle name "${folder.name}" is already taken by ${taken.dir}`,
        });
      else if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(folder.name))
        invalid.push({
          kind: "knowledge",
          path: folder.path,
          level: folder.level,
          reason: `its folder name "${folder.name}" is not a bundle name: 1-64 letters, digits, '_', '.' or '-'`,
        });
      else
        sources.push({
          name: folder.name,
          dir: folder.path,
          level: folder.level,
          ...(root.pin ? { pin: root.pin } : {}),
        });
    }
  }
  return { sources, invalid };
}
