import { patternDetector, type Detector } from "./detector.js";
import type { RedactionPattern } from "./rules.js";

/**
 * True when `text` is base64 of printable `user:password` text (the user may be empty, the
 * password not): what HTTP Basic credentials and Docker's `auth` fields hold.
 */
export function isBasicCredential(text: string): boolean {
  if (text.length < 8 || text.length > 1024 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return false;
  const decoded = Buffer.from(text, "base64").toString("latin1");
  const colon = decoded.indexOf(":");
  return colon >= 0 && colon < decoded.length - 1 && /^[\x20-\x7e]+$/.test(decoded);
}

/** Offsets of group `group` of `regex`'s match inside `match` (the secret part of a form). */
function groupOf(regex: RegExp, group: number): (match: string) => { start: number; end: number } | undefined {
  const withIndices = new RegExp(regex.source, `${regex.flags.replace("g", "")}d`);
  return (match) => {
    const indices = withIndices.exec(match)?.indices?.[group];
    return indices ? { start: indices[0], end: indices[1] } : undefined;
  };
}

const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:@/?#'"<>`]*:([^\s@/?#'"<>`]+)@/gi;
const URL_SIGNATURE = /[?&](?:sig|signature|x-amz-signature|x-goog-signature|x-goog-credential)=([^&#\s"'<>`]+)/gi;
const USER_OPTION = /(?<![\w-])(?:-u|--user)(?:=|[ \t]+)(["']?)([^\s:"']*):([^\s"']+)\1/g;
const BASIC = /\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])/g;

/**
 * Credentials in the everyday forms of command lines and URLs: the password of a URL's user
 * info on any host (`amqp://u:pw@rabbit`, `redis://:pw@redis`), signature parameters of signed
 * URLs (Azure SAS `sig=`, `X-Amz-Signature=`), `curl -u user:password` (not `uid:gid` numbers,
 * as `docker run -u 1000:1000` takes), and `Basic <base64 of user:password>` anywhere in text.
 */
const FORMS: readonly RedactionPattern[] = [
  { name: "url_password", pattern: URL_PASSWORD, hint: ["://"], locate: groupOf(URL_PASSWORD, 1) },
  {
    name: "url_signature",
    pattern: URL_SIGNATURE,
    hint: ["sig=", "signature=", "credential="],
    locate: groupOf(URL_SIGNATURE, 1),
  },
  {
    name: "user_password",
    pattern: USER_OPTION,
    // `--user` holds `-u`.
    hint: ["-u"],
    accept: (match) => !/[:\s"'=]\d+:\d+["']?$/.test(match),
    locate: groupOf(USER_OPTION, 3),
  },
  {
    name: "basic_auth",
    pattern: BASIC,
    hint: ["basic"],
    accept: (match) => isBasicCredential(match.slice("Basic".length).trimStart()),
    locate: groupOf(BASIC, 1),
  },
];

/** The command-line and URL credential forms of the default policy. */
export const CREDENTIAL_FORMS: readonly Detector[] = FORMS.map(patternDetector);
