import { ReadResultError } from "./errors.js";
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
  const source = literal ? literal[1] : pattern;
  const flags = literal ? literal[2] : "";
  const bad = flags.replace(/[isu]/g, "");
  if (bad) throw new ReadResultError("bad_pattern", `regular expression flags may be i, s or u; got "${bad}".`);
  try {
    return new RegExp(source, `${flags}gm`);
  } catch (error) {
    throw new ReadResultError("bad_pattern", `the pattern is not a valid JavaScript regular expression: ${(error as Error).message}. Fix it, or search literally with regex: false.`);
  }
}

function literalMatches(view: TextView, pattern: string, limit: number): RegexMatch[] {
  const needle = Buffer.from(pattern, "utf8");
  const matches: RegexMatch[] = [];
  for (let at = view.bytes.indexOf(needle); at >= 0 && matches.length < limit; at = view.bytes.indexOf(needle, at + needle.length)) {
    matches.push({ index: at, length: needle.length });
  }
  return matches;
}

/** A line shown around the match (byte offsets), cut to a window of about LINE_SHOWN characters. */
function showLine(view: TextView, start: number, end: number, focus?: number): string {
  if (end - start <= LINE_SHOWN) return view.text(start, end);
  const from = view.boundary(Math.max(start, Math.min((focus ?? start) - LINE_SHOWN / 3, end - LINE_SHOWN)));
  const to = view.boundary(Math.min(end, from + LINE_SHOWN));
  return `${from > start ? "…" : ""}${view.text(from, to)}${to < end ? "…" : ""}`;
}

/** Matches with line numbers and context lines (grep style: `12:` matching line, `11-` context). */
export async function searchView(view: TextView, request: SearchRequest, runner: RegexRunner): Promise<string> {
  if (request.pattern === "") throw new ReadResultError("bad_pattern", "pattern is empty: give the text (or regex) to look for.");
  const limit = request.maxMatches + 1;
  const matches = request.regex
    ? await runner.find(view, compilePattern(request.pattern), limit, request.timeoutMs)
    : literalMatches(view, request.pattern, limit);
  const more = matches.length > request.maxMatches;
  const shown = matches.slice(0, request.maxMatches);
  const context = request.context ?? 1;
  const what = view.prettyJson ? "pretty-printed JSON" : "text";
  if (shown.length === 0) return `no match for ${JSON.stringify(request.pattern)} in the ${what} (${view.lineCount} lines).`;

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
      previous.unshift(`${line - k - 1}-${showLine(view, prevStart, before - 1)}`);
      before = prevStart;
    }
    lines.push(...previous, `${line}:${showLine(view, start, view.lineEnd(match.index), match.index)}`);
    let after = view.lineEnd(match.index) + 1;
    for (let k = 1; k <= context && after < view.length; k++) {
      const end = view.lineEnd(after);
      lines.push(`${line + k}-${showLine(view, after, end)}`);
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
  const header = `${more ? `more than ${request.maxMatches} matches` : `${shown.length} ${shown.length === 1 ? "match" : "matches"}`} for ${JSON.stringify(request.pattern)} in the ${what} (${view.lineCount} lines)${
    more || cut ? `; showing ${blocks.length} line groups: narrow the pattern, or read around a line with op "slice"` : ""
  }`;
  return `[${header}]\n${blocks.join("\n--\n")}`;
}
