// What other packages' tests use of the artifacts' test support: `@harnessx/artifacts/test-support` (source only, never built).
export { zstdBomb } from "./bombs.js";
