/** One secret format as an agent meets it: a line of shell output, a config file, a log. */
export interface CorpusSample {
  /** The format. */
  name: string;
  /** Where it is documented: `gitleaks:<rule id>`, `secretlint:<rule>`, `docs:<provider>`, or `form` (an everyday form). */
  source: string;
  /** The text around the secret. */
  text: string;
  /** The secret in it: no 10 characters in a row of it may survive redaction. */
  secret: string;
  /** False for a shape the default policy does not claim (docs/redaction.md says which and why). */
  claimed: boolean;
}

/**
 * Texts that carry a token with no sensitive word around it, so only the token's own shape can
 * give it away; samples take them in turn.
 */
const NEUTRAL: ReadonlyArray<(secret: string) => string> = [
  (s) => `copied ${s} from the dashboard`,
  (s) => `{"value": "${s}", "note": "rotated yesterday"}`,
  (s) => `  value: ${s}`,
  (s) => `echo ${s} | pbcopy`,
  (s) => `[12:00:01] INFO loaded ${s} (ok)`,
];

let turn = 0;

/** A claimed token shape in a neutral text. */
export function token(name: string, source: string, secret: string): CorpusSample {
  return { name, source, text: NEUTRAL[turn++ % NEUTRAL.length](secret), secret, claimed: true };
}

/** A sample in a text of its own. */
export function form(name: string, source: string, secret: string, text: string, claimed = true): CorpusSample {
  if (!text.includes(secret)) throw new Error(`corpus sample "${name}": the text does not hold its secret`);
  return { name, source, text, secret, claimed };
}
