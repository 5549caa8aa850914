/** A `LatencySketch` as stored in `run.json`: counts per logarithmic bucket, plus the exact extremes. */
export interface LatencySketchData {
  /** Values added. */
  count: number;
  /** Smallest value added, exactly. */
  min: number;
  /** Largest value added, exactly. */
  max: number;
  /** Values at or below 1 µs (0.001 ms), which no logarithmic bucket holds. */
  zero: number;
  /** Bucket index (as text) -> values in it; bucket `k` holds values in (γ^(k-1), γ^k]. */
  buckets: Record<string, number>;
}

/** Relative accuracy of every quantile the sketch answers (1%). */
export const LATENCY_SKETCH_ACCURACY = 0.01;
const GAMMA = (1 + LATENCY_SKETCH_ACCURACY) / (1 - LATENCY_SKETCH_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);
const ZERO_BELOW = 0.001;

/**
 * Latencies in bounded space (a DDSketch with 1% relative accuracy): a run of a million tool
 * calls keeps a few hundred buckets per tool, so `run.json` can hold its percentiles. Quantiles
 * are nearest-rank (the value at rank ceil(q·n)), estimated within 1% and clamped to the exact
 * min and max, so a single value or the maximum comes back exact.
 */
export class LatencySketch {
  private count = 0;
  private min = Infinity;
  private max = -Infinity;
  private zero = 0;
  private readonly buckets = new Map<number, number>();

  /** A sketch holding what `data` describes (as `toJSON` wrote it). */
  static from(data: LatencySketchData): LatencySketch {
    const sketch = new LatencySketch();
    sketch.count = data.count;
    sketch.min = data.min;
    sketch.max = data.max;
    sketch.zero = data.zero;
    for (const [key, n] of Object.entries(data.buckets)) sketch.buckets.set(Number(key), n);
    return sketch;
  }

  /** Adds one value (milliseconds); values that are not finite numbers are ignored. */
  add(value: number): void {
    if (!Number.isFinite(value)) return;
    const v = Math.max(0, value);
    this.count++;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (v <= ZERO_BELOW) this.zero++;
    else {
      const key = Math.ceil(Math.log(v) / LOG_GAMMA);
      this.buckets.set(key, (this.buckets.get(key) ?? 0) + 1);
    }
  }

  /** The value at quantile `q` (0..1), within 1%; null when nothing was added. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.min(this.count, Math.max(1, Math.ceil(q * this.count)));
    if (rank === this.count) return this.max;
    let seen = this.zero;
    if (rank <= seen) return this.min;
    for (const key of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(key)!;
      if (rank <= seen) return Math.min(this.max, Math.max(this.min, (2 * GAMMA ** key) / (GAMMA + 1)));
    }
    return this.max;
  }

  /** The largest value added; null when nothing was. */
  get largest(): number | null {
    return this.count === 0 ? null : this.max;
  }

  /** The sketch as `run.json` holds it (`LatencySketch.from` reads it back). */
  toJSON(): LatencySketchData {
    const buckets: Record<string, number> = {};
    for (const [key, n] of this.buckets) buckets[key] = n;
    return {
      count: this.count,
      min: this.count ? this.min : 0,
      max: this.count ? this.max : 0,
      zero: this.zero,
      buckets,
    };
  }
}
