import { cutPoint } from "@harnessx/core";
import { ReadResultError } from "./errors.js";
import type { ShowText } from "./slice.js";
import type { RegexMatch, RegexRunner } from "./regex-runner.js";
import type { TextView } from "./text-view.js";

export interface SearchRequest {
  pattern: string;
  regex: boolean;
  maxMatches: number;
  timeoutMs: number;
  maxChars: number;
  /** Lines shown before and after each matching line. Default 1. */
  context?: number;
}

const LINE_SHOWN = 300;

/** `/source/flags` or a bare source; `g` and `m` are always added (every match, ^ and $ per line). */
export function compilePattern(pattern: string): RegExp {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const source = literal ? literal[1]! : pattern;
  const flags = literal ? literal[2]! : "";
  const bad = flags.replace(/[isu]/g, "");
  if (bad) throw new ReadResultError("bad_pattern", `regular expression flags may be i, s or u; got "${bad}".`);
  try {
    return new RegExp(source, `${flags}gm`);
  } catch (error) {
    // The engine's message quotes the whole pattern: only its reason is repeated.
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, "");
    throw new ReadResultError(
      "bad_pattern",
      `the pattern ${quotePattern(pattern)} is not a valid JavaScript regular expression: ${reason.slice(0, PATTERN_SHOWN)}. Fix it, or search literally with regex: false.`,
    );
  }
}

function literalMatches(view: TextView, pattern: string, limit: number): RegexMatch[] {
  const needle = Buffer.from(pattern, "utf8");
  const matches: RegexMatch[] = [];
  for (
    let at = view.bytes.indexOf(needle);
    at >= 0 && matches.length < limit;
    at = view.bytes.indexOf(needle, at + needle.length)
  ) {
    matches.push({ index: at, length: needle.length });
  }
  return matches;
}

/** A line shown around the match (byte offsets), cut to a window of about LINE_SHOWN characters. */
function showLine(view: TextView, show: ShowText, start: number, end: number, focus?: number): string {
  if (end - start <= LINE_SHOWN) return show(start, end);
  const from = view.boundary(Math.max(start, Math.min((focus ?? start) - LINE_SHOWN / 3, end - LINE_SHOWN)));
  const to = view.boundary(Math.min(end, from + LINE_SHOWN));
  return `${from > start ? "…" : ""}${show(from, to)}${to < end ? "…" : ""}`;
}

/** Characters of a pattern repeated in an answer: a pattern can be as long as the model likes. */
const PATTERN_SHOWN = 200;

/** The pattern as an answer quotes it, cut to PATTERN_SHOWN characters. */
export function quotePattern(pattern: string): string {
  return pattern.length <= PATTERN_SHOWN
    ? JSON.stringify(pattern)
    : `${JSON.stringify(pattern.slice(0, cutPoint(pattern, PATTERN_SHOWN) || PATTERN_SHOWN))}… (${pattern.length} characters)`;
}

/**
 * Matches with line numbers and context lines (grep style: `12:` matching line, `11-` context).
 * Lines shown pass `show` (see `ShowText`).
 */
export async function searchView(
  view: TextView,
  request: SearchRequest,
  runner: RegexRunner,
  show: ShowText = (a, b) => view.text(a, b),
): Promise<string> {
  if (request.pattern === "")
    throw new ReadResultError("bad_pattern", "pattern is empty: give the text (or regex) to look for.");
  const limit = request.maxMatches + 1;
  const matches = request.regex
    ? await runner.find(view, compilePattern(request.pattern), limit, request.timeoutMs)
    : literalMatches(view, request.pattern, limit);
  const more = matches.length > request.maxMatches;
  const shown = matches.slice(0, request.maxMatches);
  const context = request.context ?? 1;
  const what = view.prettyJson ? "pretty-printed JSON" : "text";
  if (shown.length === 0)
    return `no match for ${quotePattern(request.pattern)} in the ${what} (${view.lineCount} lines).`;

  const blocks: string[] = [];
  let used = 0;
  let lastShownLine = 0;
  let cut = false;
  for (const match of shown) {
    const line = view.lineNumberAt(match.index);
    if (line <= lastShownLine) continue;
    const start = view.lineStartAt(match.index);
    const lines: string[] = [];
    let before = start;
    const previous: string[] = [];
    for (let k = 0; k < context && before > 0 && line - k - 1 > lastShownLine; k++) {
      const prevStart = view.lineStartAt(before - 1);
      previous.unshift(`${line - k - 1}-${showLine(view, show, prevStart, before - 1)}`);
      before = prevStart;
    }
    lines.push(...previous, `${line}:${showLine(view, show, start, view.lineEnd(match.index), match.index)}`);
    let after = view.lineEnd(match.index) + 1;
    for (let k = 1; k <= context && after < view.length; k++) {
      const end = view.lineEnd(after);
      lines.push(`${line + k}-${showLine(view, show, after, end)}`);
      after = end + 1;
    }
    const block = lines.join("\n");
    if (used + block.length + 3 > request.maxChars) {
      cut = true;
      break;
    }
    blocks.push(block);
    used += block.length + 3;
    lastShownLine = line + context;
  }
  const header = `${more ? `more than ${request.maxMatches} matches` : `${shown.length} ${shown.length === 1 ? "match" : "matches"}`} for ${quotePattern(request.pattern)} in the ${what} (${view.lineCount} lines)${
    more || cut
      ? `; showing ${blocks.length} line groups: narrow the pattern, or read around a line with op "slice"`
      : ""
  }`;
  return `[${header}]\n${blocks.join("\n--\n")}`;
}
