import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { currentScope, defineExtension, HookEvent, type Extension, type ExtensionContext } from "harnessx";

/**
 * Automatic checkpoints as an extension: at every turn start and at session shutdown it saves
 * the session (`ctx.sessionSnapshot()`, redacted with the agent's policy before it touches the
 * disk) to `<dir>/<sessionId>-<n>-<phase>.json` and reports a `CHECKPOINT` event. Returns the
 * extension and the files it wrote.
 */
export function checkpoints(dir: string): { extension: Extension; files: string[] } {
  const files: string[] = [];
  const save = async (ctx: ExtensionContext, phase: "turn_start" | "session_shutdown") => {
    const snapshot = ctx.sessionSnapshot();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${snapshot.sessionId}-${files.length + 1}-${phase}.json`);
    writeFileSync(file, `${JSON.stringify(ctx.redactor.redact(snapshot, "session", []), null, 2)}\n`);
    files.push(file);
    await ctx.report(HookEvent.CHECKPOINT, {
      sessionId: snapshot.sessionId,
      runId: currentScope()?.runId ?? "",
      status: "saved",
      phase,
    });
  };
  const extension = defineExtension({
    name: "checkpoints",
    onTurnStart: (ctx) => save(ctx, "turn_start"),
    onSessionEnd: (ctx) => save(ctx, "session_shutdown"),
  });
  return { extension, files };
}
