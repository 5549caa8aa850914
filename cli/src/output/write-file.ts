import { promises as fs } from "node:fs";
import { dirname } from "node:path";
import { CliError, ExitCode } from "../errors.js";

/** Refuses to replace an existing file unless asked: a command never destroys what the user had. */
export async function checkWritable(path: string, overwrite: boolean, shown: string = path): Promise<void> {
  const stat = await fs.stat(path).catch(() => undefined);
  if (stat?.isDirectory())
    throw new CliError(ExitCode.USAGE, "output_is_directory", `output ${shown} is a directory; name a file`);
  if (stat && !overwrite)
    throw new CliError(ExitCode.USAGE, "output_exists", `output ${shown} already exists; remove it or pass --force`);
  const parent = await fs.stat(dirname(path)).catch(() => undefined);
  if (!parent?.isDirectory())
    throw new CliError(ExitCode.NOT_FOUND, "output_dir_missing", `the folder of ${shown} does not exist`);
}
