import { parse as parseYaml } from "yaml";

/** A Markdown file split into its YAML frontmatter (an object, empty when there is none) and its body. */
export interface MarkdownDocument {
  /** The frontmatter's keys and values; `{}` when the file has none. */
  data: Record<string, unknown>;
  /** The text after the closing `---` line (a leading byte-order mark removed), untrimmed. */
  body: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `---`-fenced YAML frontmatter from a Markdown body. Throws with a reason a user can act
 * on when the frontmatter is not YAML or not a mapping; a file without frontmatter is all body.
 */
export function parseFrontmatter(text: string): MarkdownDocument {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fence = FENCE.exec(source);
  if (!fence) return { data: {}, body: source };
  let data: unknown;
  try {
    // Plain YAML only: no custom tags, and aliases bounded so a small file cannot expand into a huge value.
    data = parseYaml(fence[1]!, { schema: "core", maxAliasCount: 100 });
  } catch (err) {
    throw new Error(`its frontmatter is not valid YAML (${(err as Error).message.split("\n")[0]})`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data))
    throw new Error("its frontmatter must be a YAML mapping (key: value lines)");
  return { data: data as Record<string, unknown>, body: source.slice(fence[0].length) };
}
