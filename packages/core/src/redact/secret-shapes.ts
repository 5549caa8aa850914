import { rules as presetRules } from "#secretlint-preset";
import { CREDENTIAL_FORMS } from "./credential-forms.js";
import type { Detector, Span } from "./detector.js";
import { PRIVATE_KEY_SHAPES } from "./private-keys.js";
import { TOKEN_SHAPES } from "./token-shapes.js";
import { deepFreeze } from "../util/deep-freeze.js";

/** The part of a secretlint rule creator this adapter drives (the preset's rules are synchronous text scanners). */
interface SecretlintRule {
  meta: { id: string; type?: string };
  create(
    context: {
      createTranslator(messages: unknown): (id: string, data?: unknown) => string;
      report(descriptor: { range: readonly [number, number] }): void;
      ignore(descriptor: unknown): void;
    },
    options: Record<string, unknown>,
  ): { file?(source: { content: string; filePath: string; ext: string; contentType: "text" }): void | Promise<void> };
}

/**
 * Literal fragments (lower-case) one of which every match of a rule contains, so that a string
 * runs only the rules it could trip. A rule missing here (a newer preset) runs on every string:
 * slower, never blind.
 */
const RULE_HINTS: Record<string, readonly string[]> = {
  aws: ["akia", "asia", "a3t", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "secret", "account"],
  privatekey: ["-----begin"],
  npm: ["npm_", "_authtoken", "x-oauth-basic"],
  basicauth: ["://"],
  slack: ["xox", "xapp", "hooks.slack.com"],
  sendgrid: ["sg."],
  shopify: ["shppa_", "shpca_", "shpat_", "shpss_"],
  stripe: ["sk_live", "sk_test", "rk_live", "rk_test"],
  github: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
  gitlab: ["glpat-"],
  grafana: ["glc_", "glsa_"],
  openai: ["t3blbkfj"],
  anthropic: ["sk-ant-"],
  groq: ["gsk_"],
  huggingface: ["hf_"],
  linear: ["lin_api_"],
  notion: ["ntn_"],
  "1password": ["ops_"],
  "database-connection-string": ["://"],
  "hashicorp-vault": ["hvs.", "hvb.", "hvr."],
  vercel: ["vcp_", "vci_", "vca_", "vcr_", "vck_"],
  databricks: ["dapi"],
  docker: ["dckr_pat_", "auths"],
  figma: ["figd_"],
  cloudflare: ["cfk_", "cfut_", "cfat_"],
  tailscale: ["tskey-"],
};

/** Options that make a rule report what a recorder must hide (access key ids, not only secrets). */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = { aws: { enableIDScanRule: true } };

/**
 * Rules left out: the preset's comment filter is no secret shape, and its GCP rule looks only at
 * files named `.json` or `.p12` and reports the whole file (the private key shapes find the key
 * inside a service account's JSON, wherever it turns up).
 */
const NOT_SHAPES = new Set(["filter-comments", "gcp"]);

const shortId = (id: string) => id.replace(/^@secretlint\/secretlint-rule-/, "");

/** One detector per rule of the secretlint recommended preset, each run under its hints. */
function presetDetectors(): Detector[] {
  const detectors: Detector[] = [];
  for (const rule of presetRules as unknown as SecretlintRule[]) {
    const name = shortId(rule.meta.id);
    if (NOT_SHAPES.has(name)) continue;
    let found: Span[] = [];
    const handlers = rule.create(
      {
        createTranslator: () => (id) => id,
        report: (descriptor) => void found.push({ start: descriptor.range[0], end: descriptor.range[1], name }),
        ignore: () => undefined,
      },
      RULE_OPTIONS[name] ?? {},
    );
    const scan = handlers.file;
    if (!scan) continue;
    detectors.push({
      name,
      hint: RULE_HINTS[name],
      find(text) {
        found = [];
        const pending = scan.call(handlers, { content: text, filePath: "value.txt", ext: ".txt", contentType: "text" });
        // The preset's text rules report synchronously; a promise (a binary-file rule) is not waited for.
        if (pending) pending.catch(() => undefined);
        return found;
      },
    });
  }
  return detectors;
}

/**
 * The maintained secret shapes: secretlint's recommended preset, then harnessx's own (private
 * keys whole and cut, vendor tokens the preset leaves out, credentials in command lines and URLs).
 */
export const SECRET_SHAPES: readonly Detector[] = deepFreeze([
  ...presetDetectors(),
  ...PRIVATE_KEY_SHAPES,
  ...TOKEN_SHAPES,
  ...CREDENTIAL_FORMS,
]);
