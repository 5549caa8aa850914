/** Quote-aware reading of the head of a CSV (RFC 4180) to recognise it and preview it. */

const QUOTE = 0x22;
const LF = 0x0a;

export const CSV_DELIMITERS = [",", "\t", ";", "|"] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export interface CsvHead {
  delimiter: CsvDelimiter;
  /** Fields per record. */
  fields: number;
  /** Offsets just past each complete record (header first). */
  recordEnds: number[];
}

interface Scan {
  fields: number[];
  ends: number[];
}

function scanRecords(text: string, delimiter: number, maxChars: number, maxRecords: number): Scan {
  const fields: number[] = [];
  const ends: number[] = [];
  const n = Math.min(text.length, maxChars);
  let count = 1;
  let inQuotes = false;
  let recordStart = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inQuotes) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else inQuotes = false;
      }
    } else if (c === QUOTE) {
      inQuotes = true;
    } else if (c === delimiter) {
      count++;
    } else if (c === LF) {
      if (text.slice(recordStart, i).trim() !== "") {
        fields.push(count);
        ends.push(i + 1);
        if (fields.length >= maxRecords) return { fields, ends };
      }
      count = 1;
      recordStart = i + 1;
    }
  }
  if (n === text.length && !inQuotes && text.slice(recordStart).trim() !== "") {
    fields.push(count);
    ends.push(text.length);
  }
  return { fields, ends };
}

/**
 * Recognises a delimited table: a header and at least one row, two or more fields,
 * every sampled record with the same field count (quoted delimiters do not count).
 */
export function sniffCsv(text: string, sampleChars = 256_000, sampleRecords = 200): CsvHead | undefined {
  let best: CsvHead | undefined;
  for (const delimiter of CSV_DELIMITERS) {
    const { fields, ends } = scanRecords(text, delimiter.charCodeAt(0), sampleChars, sampleRecords);
    if (fields.length < 2 || fields[0] < 2) continue;
    if (!fields.every((f) => f === fields[0])) continue;
    if (!best || fields[0] > best.fields) best = { delimiter, fields: fields[0], recordEnds: ends };
  }
  return best;
}

/** Header plus as many whole records as fit `budget` characters: still a valid CSV. */
export function csvHead(text: string, head: CsvHead, budget: number): string {
  let end = head.recordEnds[0];
  for (const next of head.recordEnds.slice(1)) {
    if (next > budget) break;
    end = next;
  }
  return text.slice(0, end);
}
