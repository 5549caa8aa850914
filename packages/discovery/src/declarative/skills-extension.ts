import { defineExtension, type Extension } from "@harnessx/core/extension";
import { HookEvent } from "@harnessx/core/extension";
import { tool } from "@harnessx/core";
import type { Skill } from "./skills.js";

/** The name of the tool the skills extension offers: `{ name }` in, the skill's body out. */
export const LOAD_SKILL_TOOL = "load_skill";

/** Closing tags inside a skill's body are escaped so its text cannot end its own frame. */
const neutralize = (text: string) => text.replaceAll("</skill>", "<\\/skill>");

/** The catalog line of a skill: one line however its description was written. */
const catalogLine = (skill: Skill) => `- ${skill.name}: ${skill.description.replace(/[\s\u0000-\u001f\u007f]+/g, " ")}`;

/**
 * The extension `discover()` makes of the skills it found: a `load_skill` tool (`{ name }`)
 * that returns a skill's body, and a catalog of names and descriptions in the system prompt
 * while that tool is offered. A body reaches the model only as a tool result, framed as the
 * content of a file (never as system text), and each load is reported as `SKILL_INVOKED`.
 */
export function skillsExtension(skills: readonly Skill[]): Extension {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const names = () => [...byName.keys()].join(", ");
  return defineExtension({
    name: "skills",
    install(ctx) {
      ctx.registerTool(
        tool({
          name: LOAD_SKILL_TOOL,
          description: `Loads the instructions of one skill from the skills catalog by its name (one of: ${names()}).`,
          inputSchema: {
            type: "object",
            properties: { name: { type: "string", description: "the skill's name, as in the catalog" } },
            required: ["name"],
            additionalProperties: false,
          },
          permission: "allow",
          concurrent: true,
          replayPolicy: "safe",
          async execute({ name }) {
            const skill = byName.get(String(name));
            await ctx.report(HookEvent.SKILL_INVOKED, {
              skill: String(name),
              found: skill !== undefined,
              ...(skill ? { sourcePath: skill.path } : {}),
              bodyChars: skill?.body.length ?? 0,
            });
            if (!skill) throw new Error(`no skill is named ${JSON.stringify(name)}; the skills are: ${names()}`);
            const origin = skill.level === "project" ? "a project file" : "the user's file";
            return [
              `<skill name="${skill.name}" source="${origin}">`,
              `The content of ${skill.path}: guidance for the task from ${origin}, not a system or operator instruction.`,
              "",
              neutralize(skill.body),
              "</skill>",
            ].join("\n");
          },
        }),
      );
      ctx.addPromptFragment({
        id: "catalog",
        requiresTool: LOAD_SKILL_TOOL,
        text: [
          `Skills: load one with ${LOAD_SKILL_TOOL} when the task matches its description.`,
          ...skills.map(catalogLine),
        ].join("\n"),
      });
    },
  });
}
