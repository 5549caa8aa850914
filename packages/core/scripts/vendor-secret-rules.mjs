#!/usr/bin/env node
// Ships secretlint's recommended preset inside core's dist/. The preset is one bundled ES module
// without dependencies; its releases since 12 declare Node 22 or newer, so depending on it made
// every Node 20 install of harnessx warn EBADENGINE. It runs on Node 20 (CI runs the redaction
// tests there), so core carries it as a file: the app installs no package with a stricter engine.
// Source mode (tests under the `harnessx-source` condition) loads the devDependency itself; see
// "imports" in core's package.json.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const name = "@secretlint/secretlint-rule-preset-recommend";
const core = new URL("..", import.meta.url).pathname;
const packageRoot = dirname(createRequire(join(core, "package.json")).resolve(`${name}/package.json`));
const { version, license } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
const out = join(core, "dist", "vendor");
mkdirSync(out, { recursive: true });

const code = readFileSync(join(packageRoot, "module", "index.js"), "utf8").replace(
  /\n\/\/# sourceMappingURL=.*\s*$/,
  "\n",
);
writeFileSync(
  join(out, "secretlint-preset.js"),
  `// ${name}@${version} (${license}); its license is in secretlint-preset.LICENSE\n${code}`,
);
copyFileSync(join(packageRoot, "LICENSE"), join(out, "secretlint-preset.LICENSE"));
