import { patternDetector, type Detector } from "./detector.js";
import type { RedactionPattern } from "./rules.js";

/**
 * Vendor tokens the secretlint preset leaves out, from the providers' documented formats and
 * gitleaks' rules: each starts with a prefix of its own (or has a fixed layout), so its shape
 * alone tells it from data. Hints are the prefixes, lower-cased; a match is widened to the end
 * of its token.
 */
const TOKENS: readonly RedactionPattern[] = [
  {
    name: "gitlab",
    pattern: /\bgl(?:pat|dt|rt|ptt|cbt|ffct|ft|imt|agent|oas|soat)-[\w-]{20,300}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7})?/g,
    hint: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "glcbt-",
      "glffct-",
      "glft-",
      "glimt-",
      "glagent-",
      "gloas-",
      "glsoat-",
    ],
  },
  { name: "gitlab", pattern: /\bGR1348941[\w-]{20}/g, hint: ["gr1348941"] },
  {
    name: "slack",
    pattern: /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g,
    hint: ["xoxa-", "xoxb-", "xoxe", "xoxo-", "xoxp-", "xoxr-", "xoxs-"],
  },
  { name: "stripe", pattern: /\bwhsec_[A-Za-z0-9+/=]{24,}/g, hint: ["whsec_"] },
  { name: "sendgrid", pattern: /\bSG\.[\w-]{16,32}\.[\w-]{16,64}/g, hint: ["sg."] },
  { name: "twilio", pattern: /\bSK[0-9a-f]{32}\b/g, hint: ["sk"] },
  { name: "pypi", pattern: /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,}/g, hint: ["pypi-ageichlwas5vcmc"] },
  { name: "rubygems", pattern: /\brubygems_[0-9a-f]{48}\b/g, hint: ["rubygems_"] },
  { name: "huggingface", pattern: /\bapi_org_[A-Za-z]{34}\b/g, hint: ["api_org_"] },
  { name: "perplexity", pattern: /\bpplx-[A-Za-z0-9]{48}\b/g, hint: ["pplx-"] },
  { name: "replicate", pattern: /\br8_[A-Za-z0-9]{37}\b/g, hint: ["r8_"] },
  { name: "xai", pattern: /\bxai-[A-Za-z0-9]{80}\b/g, hint: ["xai-"] },
  {
    name: "google_oauth",
    pattern: /\b(?:GOCSPX-[\w-]{28}|ya29\.[\w-]{20,}|1\/\/0[\w-]{40,})/g,
    hint: ["gocspx-", "ya29.", "1//0"],
  },
  { name: "azure_ad", pattern: /(?<![\w~.])[\w~.]{3}\dQ~[\w~.-]{31,34}/g, hint: ["q~"] },
  { name: "notion", pattern: /\bsecret_[A-Za-z0-9]{43}\b/g, hint: ["secret_"] },
  {
    name: "1password",
    pattern:
      /\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}|\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g,
    hint: ["ops_eyj", "a3-"],
  },
  { name: "digitalocean", pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g, hint: ["dop_v1_", "doo_v1_", "dor_v1_"] },
  { name: "cloudflare", pattern: /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b/g, hint: ["v1.0-"] },
  { name: "grafana", pattern: /\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}/g, hint: ["eyjrijoi"] },
  {
    name: "doppler",
    pattern: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
    hint: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
  },
  { name: "dynatrace", pattern: /\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b/g, hint: ["dt0c01."] },
  { name: "easypost", pattern: /\bEZ[AT]K[A-Za-z0-9]{54}\b/g, hint: ["ezak", "eztk"] },
  { name: "postman", pattern: /\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b/g, hint: ["pmak-"] },
  { name: "prefect", pattern: /\bpnu_[A-Za-z0-9]{36}\b/g, hint: ["pnu_"] },
  { name: "pulumi", pattern: /\bpul-[a-f0-9]{40}\b/g, hint: ["pul-"] },
  { name: "planetscale", pattern: /\bpscale_(?:tkn|pw|oauth)_[\w=.-]{32,64}/g, hint: ["pscale_"] },
  { name: "readme", pattern: /\brdme_[a-z0-9]{70}\b/g, hint: ["rdme_"] },
  { name: "scalingo", pattern: /\btk-us-[\w-]{48}/g, hint: ["tk-us-"] },
  { name: "sentry", pattern: /\bsntry[us]_[A-Za-z0-9+/=_]{40,}/g, hint: ["sntryu_", "sntrys_"] },
  { name: "brevo", pattern: /\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}\b/g, hint: ["xkeysib-", "xsmtpsib-"] },
  { name: "shippo", pattern: /\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b/g, hint: ["shippo_"] },
  {
    name: "square",
    pattern: /\b(?:sq0(?:atp|csp)-[\w-]{22,60}|EAAA[\w-]{22,60})/g,
    hint: ["sq0atp-", "sq0csp-", "eaaa"],
  },
  {
    name: "flyio",
    pattern: /\b(?:fo1_[\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})/g,
    hint: ["fo1_", "fm1a_", "fm1r_", "fm2_"],
  },
  { name: "frameio", pattern: /\bfio-u-[\w=-]{64}/g, hint: ["fio-u-"] },
  { name: "duffel", pattern: /\bduffel_(?:test|live)_[\w=-]{43}/g, hint: ["duffel_"] },
  { name: "flutterwave", pattern: /\bFLWSECK(?:_TEST)?-[a-h0-9]{12,32}(?:-X)?/gi, hint: ["flwseck"] },
  { name: "age", pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g, hint: ["age-secret-key-1"] },
  { name: "artifactory", pattern: /\b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})\b/g, hint: ["akcp", "cmvmd"] },
  { name: "atlassian", pattern: /\bATATT3[\w=-]{186}/g, hint: ["atatt3"] },
  { name: "heroku", pattern: /\bHRKU-AA[\w-]{58}/g, hint: ["hrku-aa"] },
  { name: "infracost", pattern: /\bico-[A-Za-z0-9]{32}\b/g, hint: ["ico-"] },
  { name: "intra42", pattern: /\bs-s4t2(?:ud|af)-[a-f0-9]{64}\b/g, hint: ["s-s4t2"] },
  { name: "octopus", pattern: /\bAPI-[A-Z0-9]{26}\b/g, hint: ["api-"] },
  { name: "openshift", pattern: /\bsha256~[\w-]{43}/g, hint: ["sha256~"] },
  { name: "settlemint", pattern: /\bsm_(?:pat|aat|sat)_[A-Za-z0-9]{16}\b/g, hint: ["sm_pat_", "sm_aat_", "sm_sat_"] },
  { name: "clojars", pattern: /\bCLOJARS_[A-Za-z0-9]{60}\b/g, hint: ["clojars_"] },
  { name: "adobe", pattern: /\bp8e-[A-Za-z0-9]{32}\b/g, hint: ["p8e-"] },
  { name: "alibaba", pattern: /\bLTAI[A-Za-z0-9]{20}\b/g, hint: ["ltai"] },
  { name: "clickhouse", pattern: /\b4b1d[A-Za-z0-9]{38}\b/g, hint: ["4b1d"] },
  { name: "maxmind", pattern: /\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b/g, hint: ["_mmk"] },
  { name: "newrelic", pattern: /\bNR(?:AK|II|JS|RA)-[\w-]{19,32}/g, hint: ["nrak-", "nrii-", "nrjs-", "nrra-"] },
  { name: "facebook", pattern: /\bEAA[MC][A-Za-z0-9]{100,}/g, hint: ["eaam", "eaac"] },
  { name: "harness", pattern: /\b(?:pat|sat)\.[\w-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b/g, hint: ["pat.", "sat."] },
  { name: "terraform", pattern: /\b[a-z0-9]{14}\.atlasv1\.[\w=-]{60,70}/gi, hint: ["atlasv1"] },
  {
    name: "webhook",
    pattern:
      /\bhttps:\/\/[\w-]+\.webhook\.office\.com\/webhookb2\/[^\s"'<>`]{40,}|\bhttps:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]{60,}/g,
    hint: ["webhookb2", "/api/webhooks/"],
  },
  { name: "telegram", pattern: /\b\d{8,10}:AA[\w-]{33}(?![\w-])/g, hint: [":aa"] },
  { name: "sourcegraph", pattern: /\bsgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}\b/g, hint: ["sgp_"] },
  { name: "typeform", pattern: /\btfp_[\w=.-]{59}/g, hint: ["tfp_"] },
  { name: "supabase", pattern: /\b(?:sbp_[a-f0-9]{40}\b|sb_secret_[\w-]{20,})/g, hint: ["sbp_", "sb_secret_"] },
  { name: "firebase", pattern: /\bAAAA[\w-]{7}:APA91b[\w-]{100,}/g, hint: ["apa91b"] },
  { name: "langsmith", pattern: /\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b/g, hint: ["lsv2_"] },
  { name: "airtable", pattern: /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g, hint: ["pat"] },
  { name: "buildkite", pattern: /\bbkua_[a-f0-9]{40}\b/g, hint: ["bkua_"] },
  { name: "render", pattern: /\brnd_[A-Za-z0-9]{32}\b/g, hint: ["rnd_"] },
  { name: "netlify", pattern: /\bnfp_[A-Za-z0-9]{36}\b/g, hint: ["nfp_"] },
  { name: "pinecone", pattern: /\bpcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}\b/g, hint: ["pcsk_"] },
  { name: "mailchimp", pattern: /\b[0-9a-f]{32}-us\d{1,2}\b/g, hint: ["-us"] },
  { name: "twitter", pattern: /\bA{22}[A-Za-z0-9%]{60,}/g, hint: ["aaaaaaaaaaaaaaaaaaaaaa"] },
];

/** The vendor token shapes of the default policy, beside secretlint's preset. */
export const TOKEN_SHAPES: readonly Detector[] = TOKENS.map(patternDetector);
