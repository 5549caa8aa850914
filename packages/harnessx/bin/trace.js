#!/usr/bin/env node
// `npx trace` in an app that installed harnessx: npm links only the bins of the app's own
// dependencies, so this package names the command and hands over to @harnessx/cli's launcher.
await import("@harnessx/cli/bin");
