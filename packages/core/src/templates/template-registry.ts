import { ExtensionError, TemplateError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import { renderTemplate, templateParameters, type TemplateValue } from "./prompt-template.js";

/** A prompt template as an extension registers it (`ctx.registerTemplate`). */
export interface TemplateSpec {
  /** Unique among the agent's templates: 1-64 letters, digits, `_`, `.`, `:` or `-`. */
  name: string;
  /** What the template is for; absent: `""`. */
  description?: string;
  /** Markdown with `{{parameter}}` placeholders. */
  body: string;
  /** The file a declarative template was read from. */
  source?: string;
}

/** A template as `agent.templates.list()` shows it. */
export interface TemplateInfo {
  /** The template's name. */
  name: string;
  /** What it is for; `""` when none was given. */
  description: string;
  /** The `{{parameter}}` names its body uses, each once, in order of first use. */
  parameters: string[];
  /** The extension that registered it. */
  extension: string;
  /** The Markdown file a declarative template was read from; absent for one registered in code. */
  source?: string;
}

/** What the agent offers of its templates: list them, render one into user input. */
export interface PromptTemplates {
  /** Every template, sorted by name. */
  list(): TemplateInfo[];
  /** The template's text with its parameters in place; `TemplateError` for an unknown template or a missing parameter. */
  render(name: string, params?: Readonly<Record<string, TemplateValue>>): string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** The agent's prompt templates by name: one owner per name, removed with its registration. */
export class TemplateRegistry implements PromptTemplates {
  private readonly templates = new Map<string, { info: TemplateInfo; body: string }>();

  register(spec: TemplateSpec, extension: string): { registration: Registration; info: TemplateInfo } {
    if (typeof spec?.name !== "string" || !NAME.test(spec.name))
      throw new ExtensionError(
        extension,
        `template name ${JSON.stringify(spec?.name)} must be 1-64 letters, digits, '_', '.', ':' or '-'`,
      );
    if (typeof spec.body !== "string")
      throw new ExtensionError(extension, `template "${spec.name}" needs a body string`);
    const holder = this.templates.get(spec.name);
    if (holder)
      throw new ExtensionError(
        extension,
        `template "${spec.name}" is already registered by extension "${holder.info.extension}"`,
      );
    const info: TemplateInfo = Object.freeze({
      name: spec.name,
      description: spec.description ?? "",
      parameters: Object.freeze(templateParameters(spec.body)) as string[],
      extension,
      ...(spec.source ? { source: spec.source } : {}),
    });
    const entry = { info, body: spec.body };
    this.templates.set(spec.name, entry);
    const remove = () => {
      if (this.templates.get(spec.name) === entry) this.templates.delete(spec.name);
    };
    return { info, registration: registration(remove) };
  }

  list(): TemplateInfo[] {
    return [...this.templates.values()]
      .map((t) => t.info)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  render(name: string, params: Readonly<Record<string, TemplateValue>> = {}): string {
    const template = this.templates.get(name);
    if (!template)
      throw new TemplateError(
        name,
        `no template is named "${name}"; the templates are: ${
          this.list()
            .map((t) => t.name)
            .join(", ") || "(none)"
        }`,
      );
    return renderTemplate(name, template.body, params);
  }
}
