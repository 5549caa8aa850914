import { Command } from "commander";
import { rotateSigningKey } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import type { CommandContext } from "../context.js";
import { notFound, usageError } from "../errors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { fingerprintOfRef, userKeysDir, userSigningKey, userTrustedKeys } from "../signing/user-keys.js";

/** Your key (made on first use) and the keys you trust. */
async function show(ctx: CommandContext): Promise<void> {
  const { key, created } = await userSigningKey(ctx);
  const trusted = await userTrustedKeys(ctx).list();
  if (ctx.options.json)
    return ctx.printJson({ fingerprint: key.fingerprint, publicKey: key.publicKey, path: key.path, created, trusted });
  ctx.print(terminalSafe(`your signing key: ${key.fingerprint}${created ? " (created now)" : ""}`));
  ctx.print(terminalSafe(`  ${key.path} (private: keep it so; share the public key: trace keys --public > me.pub)`));
  if (trusted.length === 0) ctx.print("you trust no other key (trace keys --trust <public key file> --name <name>)");
  else {
    ctx.print("keys you trust:");
    for (const k of trusted) ctx.print(terminalSafe(`  ${k.fingerprint}  ${k.name}  (since ${k.addedAt})`));
  }
}

async function trust(ctx: CommandContext, ref: string, name: unknown): Promise<void> {
  if (typeof name !== "string") throw usageError("--trust needs --name <name>: what you call this key (alice, ci)");
  const fingerprint = await fingerprintOfRef(ctx, ref);
  const added = await userTrustedKeys(ctx).add(name, fingerprint);
  if (ctx.options.json) ctx.printJson(added);
  else
    ctx.print(
      terminalSafe(
        `trusted ${added.fingerprint} as "${added.name}": trace verify --trusted accepts the bundles it signs`,
      ),
    );
}

async function untrust(ctx: CommandContext, ref: string): Promise<void> {
  const removed = await userTrustedKeys(ctx).remove(ref);
  if (!removed) throw notFound(`no trusted key is named or has the fingerprint ${ref}`);
  if (ctx.options.json) ctx.printJson(removed);
  else ctx.print(terminalSafe(`no longer trusted: ${removed.fingerprint} ("${removed.name}")`));
}

async function rotate(ctx: CommandContext): Promise<void> {
  const { key, retired, retiredPath } = await rotateSigningKey(userKeysDir(ctx));
  if (ctx.options.json)
    return ctx.printJson({
      fingerprint: key.fingerprint,
      path: key.path,
      retired: retired ? { fingerprint: retired.fingerprint, path: retiredPath } : null,
    });
  ctx.print(terminalSafe(`your new signing key: ${key.fingerprint}`));
  if (retired) {
    ctx.print(
      terminalSafe(`  the old one, ${retired.fingerprint}, is kept as ${retiredPath}: delete it once nothing needs it`),
    );
    ctx.print(
      "  bundles you signed before still verify under the old fingerprint; send your new public key (trace keys --public) to whoever trusts the old one",
    );
  }
}

/** `trace keys`: your bundle-signing key, and the keys you trust to sign bundles. */
export const keysCommand: CommandSpec = {
  define: () =>
    new Command("keys")
      .description(
        "show your bundle-signing key (made on first use) and the keys you trust; share, trust, untrust, rotate",
      )
      .option("--public", "print your public key (PEM) to give to whoever verifies your bundles")
      .option(
        "--trust <key>",
        "trust a teammate's key to sign bundles: their public key file, or its fingerprint SHA256:...",
      )
      .option("--name <name>", "with --trust: what you call the key (alice, ci)")
      .option("--untrust <key>", "stop trusting a key, by its name or fingerprint")
      .option("--rotate", "replace your key by a new one (the old file is kept beside it)")
      .addHelpText(
        "after",
        "\nKeys live in $HARNESSX_KEYS_DIR, else $HARNESSX_HOME/keys (default ~/.harnessx/keys): signing-key.pem\n(mode 0600, refused when others may read it) and trusted-keys.json.",
      ),
  async run(ctx, _args, options) {
    const actions = (["public", "trust", "untrust", "rotate"] as const).filter((name) => options[name] !== undefined);
    if (actions.length > 1)
      throw usageError(`give one of --public, --trust, --untrust, --rotate (got --${actions.join(", --")})`);
    if (options.name !== undefined && actions[0] !== "trust") throw usageError("--name goes with --trust");
    switch (actions[0]) {
      case "public":
        return void ctx.io.stdout.write((await userSigningKey(ctx)).key.publicKeyPem());
      case "trust":
        return trust(ctx, String(options.trust), options.name);
      case "untrust":
        return untrust(ctx, String(options.untrust));
      case "rotate":
        return rotate(ctx);
      default:
        return show(ctx);
    }
  },
};
