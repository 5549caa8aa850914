#!/usr/bin/env node
// The `trace` command. A committed launcher, so npm links the bin at install time,
// before the TypeScript build has produced dist/.
import { existsSync } from "node:fs";

const entry = new URL("../dist/bin.js", import.meta.url);
if (!existsSync(entry)) {
  console.error(
    "trace: @harnessx/cli is not built yet; run `npm run build` (or `npm run demo`) at the repository root first",
  );
  process.exit(2);
}
await import(entry.href);
