// What other packages' tests share of core's test kit (`@harnessx/core/test-support`, source
// only): temporary folders and the hook event recorder. Helpers typed by core's classes stay
// inside core, whose tests see its sources while other packages see its build.
export { ofKind, recordEvents, type HookSource, type Seen } from "./events.js";
export { echoTool } from "./helpers.js";
export { tempFolders, writeFileIn, type TestFolders } from "./folders.js";
