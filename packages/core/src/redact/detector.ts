import type { RedactionPattern } from "./rules.js";

/** A stretch of text to replace, and the name of what was found there. */
export interface Span {
  start: number;
  end: number;
  name: string;
  /** Where what identifies it starts, when that is before `start` (the key of a value). */
  anchor?: number;
}

/** Finds secrets of one kind in a string. */
export interface Detector {
  name: string;
  /** Lower-case literals one of which every finding contains, or a check of the lower-cased text; absent: always run. */
  hint?: readonly string[] | ((lowerText: string) => boolean);
  find(text: string): Span[];
}

/** A user-facing regex pattern as a detector. */
export function patternDetector(rule: RedactionPattern): Detector {
  return {
    name: rule.name,
    hint: rule.hint,
    find(text) {
      const spans: Span[] = [];
      rule.pattern.lastIndex = 0;
      for (const match of text.matchAll(rule.pattern)) {
        if (match[0] === "" || (rule.accept && !rule.accept(match[0]))) continue;
        const part = rule.locate ? rule.locate(match[0]) : { start: 0, end: match[0].length };
        if (part) spans.push({ start: match.index + part.start, end: match.index + part.end, name: rule.name });
      }
      return spans;
    },
  };
}

/** Characters a token (key, base64, hex) is made of: a finding is widened over them, and a cut stays off them. */
export function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 45 ||
    code === 43 ||
    code === 47 ||
    code === 61
  );
}

/**
 * Every finding of the detectors (those whose hints the text passed: see `DetectorSet`),
 * overlapping ones merged (the first name kept), in order. A finding is widened to the end of
 * its token: a rule that matches (or reports) only a prefix of a longer token must not leave its
 * tail behind.
 */
export function detect(detectors: readonly Detector[], text: string): Span[] {
  const spans: Span[] = [];
  for (const detector of detectors) {
    for (const span of detector.find(text)) {
      // Past the end of the text charCodeAt gives NaN, no token character.
      while (isTokenChar(text.charCodeAt(span.end))) span.end++;
      spans.push(span);
    }
  }
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [spans[0]];
  for (const span of spans.slice(1)) {
    const last = merged[merged.length - 1];
    if (span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The text with each span replaced. */
export function replaceSpans(
  text: string,
  spans: readonly Span[],
  replacement: (span: Span, found: string) => string,
): string {
  return spans.length === 0 ? text : replaceAndPlace(text, spans, replacement).text;
}

/** `replaceSpans`, also telling where each replacement sits in the text it returns. */
export function replaceAndPlace(
  text: string,
  spans: readonly Span[],
  replacement: (span: Span, found: string) => string,
): { text: string; regions: Array<readonly [number, number]> } {
  const regions: Array<readonly [number, number]> = [];
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start);
    const replaced = replacement(span, text.slice(span.start, span.end));
    regions.push([out.length, out.length + replaced.length]);
    out += replaced;
    at = span.end;
  }
  return { text: out + text.slice(at), regions };
}
