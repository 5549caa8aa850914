import type { ModelRequest } from "@harnessx/core";
import type { Redactor } from "@harnessx/core/extension";
import { firstDifference } from "./json-diff.js";

/** Where two requests first differ: the JSON path (`messages.3.content.0.content`) and both values. */
export interface RequestDifference {
  /** Dotted path of the first differing value, from the request's root (`"(root)"` for the whole request). */
  path: string;
  /** The recorded value there (undefined when the recorded request has none). */
  recorded: unknown;
  /** The new request's value there, redacted like the recording (undefined when it has none). */
  actual: unknown;
}

/** The request fields compared besides `messages` (compared one message at a time). */
const COMPARED: ReadonlyArray<keyof ModelRequest> = ["model", "system", "tools", "maxTokens", "temperature"];

/**
 * Compares the requests of a run with the recorded requests of another, call by call: replay
 * (a rerun against its recording) and `trace diff` (two recordings) use this one comparison.
 * Incremental, so a long run compares in linear time: a message is redacted and compared once,
 * and again only when either side gives another object at its place (a condensed or rewritten
 * history); the other fields only when they change. A message object edited in place after it
 * was compared is not seen again.
 */
export class RequestComparer {
  /** Each message of the compared run found equal to its recorded counterpart, with that counterpart. */
  private readonly matched = new WeakMap<object, unknown>();
  /** The request fields last found equal, recorded and actual (`actual.<key>`), to skip them while unchanged. */
  private readonly lastFields = new Map<string, unknown>();

  /** `redactor` redacts the compared side as the recorded side was (none: it is a recording too, or was recorded without). */
  constructor(private readonly redactor?: Redactor) {}

  /** The first difference of `actual` from `recorded`, or undefined when they are the same. */
  compare(recorded: ModelRequest | undefined, actual: ModelRequest | undefined): RequestDifference | undefined {
    return (
      this.fieldsDifference(recorded, actual) ??
      this.messagesDifference(recorded?.messages ?? [], actual?.messages ?? [])
    );
  }

  private fieldsDifference(
    recorded: ModelRequest | undefined,
    request: ModelRequest | undefined,
  ): RequestDifference | undefined {
    for (const key of COMPARED) {
      const expected = recorded?.[key];
      const actual = request?.[key];
      if (
        this.lastFields.get(key) === expected &&
        this.lastFields.get(`actual.${key}`) === actual &&
        actual !== undefined &&
        typeof actual === "object"
      )
        continue;
      const diff = firstDifference(expected, this.comparable(actual, `request.${key}`), key);
      if (diff) return diff;
      this.lastFields.set(key, expected);
      this.lastFields.set(`actual.${key}`, actual);
    }
    return undefined;
  }

  private messagesDifference(recorded: readonly unknown[], actual: readonly unknown[]): RequestDifference | undefined {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) {
      const expected = recorded[i];
      const message = actual[i];
      if (
        typeof message === "object" &&
        message !== null &&
        expected !== undefined &&
        this.matched.get(message) === expected
      )
        continue;
      const diff = firstDifference(expected, this.comparable(message, `request.messages.${i}`), `messages.${i}`);
      if (diff) return diff;
      if (typeof message === "object" && message !== null) this.matched.set(message, expected);
    }
    return undefined;
  }

  /**
   * A part of the compared request as a recording would hold it: redacted by the same rules, and
   * JSON-shaped (the recorded side was read back from JSON; redacting gives JSON-safe data).
   */
  private comparable(value: unknown, path: string): unknown {
    if (value === undefined || value === null || typeof value !== "object")
      return typeof value === "string" && this.redactor ? this.redactor.redactText(value) : value;
    return this.redactor ? this.redactor.redact(value, path, []) : (JSON.parse(JSON.stringify(value)) as unknown);
  }
}
