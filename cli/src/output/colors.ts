import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colours are on only when the stream is a terminal and `NO_COLOR` is unset or empty
 * (https://no-color.org); `--no-color` turns them off too.
 */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, disabled: boolean): Colors {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return pc.createColors(Boolean(stream.isTTY) && !noColor && !disabled);
}
