import type { CommandSpec } from "../command-spec.js";
import { convertCommand } from "./convert.js";
import { diffCommand } from "./diff.js";
import { exportCommand } from "./export.js";
import { lsCommand } from "./ls.js";
import { openCommand } from "./open.js";
import { pushCommand } from "./push.js";
import { queryCommand } from "./query.js";
import { replayCommand } from "./replay.js";
import { scrubCommand } from "./scrub.js";
import { viewCommand } from "./view.js";
import { recoverCommand } from "./recover.js";
import { reportCommand } from "./report.js";
import { showCommand } from "./show.js";
import { summaryCommand } from "./summary.js";
import { tailCommand } from "./tail.js";
import { trustCommand } from "./trust.js";
import { verifyCommand } from "./verify.js";

/** Every `trace` subcommand, in the order `trace --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  lsCommand,
  summaryCommand,
  showCommand,
  tailCommand,
  viewCommand,
  queryCommand,
  exportCommand,
  verifyCommand,
  convertCommand,
  pushCommand,
  scrubCommand,
  recoverCommand,
  replayCommand,
  diffCommand,
  reportCommand,
  openCommand,
  trustCommand,
];
