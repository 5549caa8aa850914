import { TemplateError } from "../errors.js";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** The parameter names a template body uses (`{{name}}`), each once, in order of first use. */
export function templateParameters(body: string): string[] {
  return [...new Set(Array.from(body.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/** A parameter's value: text, or a number or boolean written as text. */
export type TemplateValue = string | number | boolean;

/**
 * The body with every `{{name}}` replaced by its parameter, in one pass (a value that contains
 * `{{...}}` stays as written). A parameter the body needs and did not get, or one it does not
 * use (a typo), is a `TemplateError` naming it.
 */
export function renderTemplate(name: string, body: string, params: Readonly<Record<string, TemplateValue>>): string {
  const needed = templateParameters(body);
  const missing = needed.find((p) => !Object.hasOwn(params, p) || params[p] === undefined || params[p] === null);
  if (missing !== undefined)
    throw new TemplateError(
      name,
      `template "${name}" needs the parameter "${missing}" (it takes ${needed.join(", ")})`,
      missing,
    );
  const unknown = Object.keys(params).find((p) => !needed.includes(p));
  if (unknown !== undefined) {
    throw new TemplateError(
      name,
      `template "${name}" has no parameter "${unknown}" (${needed.length ? `it takes ${needed.join(", ")}` : "it takes none"})`,
      unknown,
    );
  }
  return body.replace(PLACEHOLDER, (_, key: string) => String(params[key]));
}
