import type { Detector } from "./detector.js";
import { HintScanner, type HintScan } from "./hint-scanner.js";

/**
 * A policy's detectors behind one pass of hints: a text runs only the detectors whose hint
 * literals it holds, whose hint function agrees, or that have no hint.
 */
export class DetectorSet {
  private readonly scanner: HintScanner;
  /** For each hint literal (by index), the detectors it wakes (by index). */
  private readonly wakes: number[][];
  /** Detectors with no hint literals (by index): each text runs them, or asks their hint function. */
  private readonly unhinted: number[];

  /** `keys` and `strictKeys`: the sensitive key names the scan looks for too (see `HintScanner`). */
  constructor(
    private readonly detectors: readonly Detector[],
    keys: readonly string[],
    strictKeys: readonly string[],
  ) {
    const literals = [...new Set(detectors.flatMap((d) => (Array.isArray(d.hint) ? d.hint : [])))];
    const indexes = detectors.map((_, i) => i);
    this.wakes = literals.map((literal) =>
      indexes.filter(
        (i) => Array.isArray(detectors[i].hint) && (detectors[i].hint as readonly string[]).includes(literal),
      ),
    );
    this.unhinted = indexes.filter((i) => !Array.isArray(detectors[i].hint));
    this.scanner = new HintScanner(literals, keys, strictKeys);
  }

  /** The hint literals and key uses of a lower-cased text. */
  scan(lower: string): HintScan {
    return this.scanner.scan(lower);
  }

  /** The detectors a scanned text may trip, in the policy's order (of two findings at one place, the first detector names it). */
  candidates(scan: HintScan, lower: string): Detector[] {
    const chosen: number[] = [];
    for (const i of this.unhinted) {
      const hint = this.detectors[i].hint;
      if (hint === undefined || (typeof hint === "function" && hint(lower))) chosen.push(i);
    }
    for (const id of scan.literals) for (const i of this.wakes[id]) if (!chosen.includes(i)) chosen.push(i);
    return chosen.sort((a, b) => a - b).map((i) => this.detectors[i]);
  }
}

// Shared by every agent of the process: no one may patch it (see Redactor).
Object.freeze(DetectorSet.prototype);
