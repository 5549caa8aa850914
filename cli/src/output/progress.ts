import cliProgress from "cli-progress";

/** Progress of one long task; a no-op when the bar is not shown. */
export interface Progress {
  /** Sets the total when it becomes known. */
  total(value: number): void;
  /** Advances by `delta` units (default 1). */
  tick(delta?: number): void;
  /** Sets the absolute position. */
  update(value: number): void;
  stop(): void;
}

const NO_PROGRESS: Progress = { total() {}, tick() {}, update() {}, stop() {} };

/**
 * A bar on stderr, shown only when stderr is a terminal and the output is not `--quiet` or `--json`:
 * scripts reading stdout or logs never see control characters.
 */
export function createProgress(
  label: string,
  options: { enabled: boolean; stream: NodeJS.WriteStream; units?: string },
): Progress {
  if (!options.enabled || !options.stream.isTTY) return NO_PROGRESS;
  const bar = new cliProgress.SingleBar(
    {
      stream: options.stream,
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${options.units ?? ""} | {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let total = 0;
  let value = 0;
  const ensure = (): void => {
    if (!started) {
      bar.start(total, value);
      started = true;
    }
  };
  return {
    total(next) {
      total = next;
      ensure();
      bar.setTotal(next);
    },
    tick(delta = 1) {
      value += delta;
      ensure();
      bar.update(value);
    },
    update(next) {
      value = next;
      ensure();
      bar.update(value);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
