import { createRequire } from "node:module";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

/** The version of `@harnessx/cli`, as in its package.json. */
export const CLI_VERSION: string = pkg.version;
