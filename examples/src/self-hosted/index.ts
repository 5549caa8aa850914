// The self-hosting proof: product features built with the public extension API alone.
export { permissionConfirmation } from "./permission-confirmation.js";
export { dangerousCommandGuard, DANGEROUS_COMMANDS } from "./dangerous-commands.js";
export { bashTool } from "./bash-tool.js";
export { toolLedgerCompaction } from "./custom-compaction.js";
export { checkpoints } from "./checkpoints.js";
export { statusLine } from "./status-line.js";
