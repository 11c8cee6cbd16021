/**
 * Redaction at the door: secrets in what agents and imports write are replaced by
 * `[redacted:<kind>]` before anything is stored, so they never reach the journal, the change feed
 * or an index (erasing them afterwards, core/erase, is the remedy for what got in before).
 *
 * The built-in patterns are high-confidence shapes only: a provider's key prefix and length, a
 * private key block, a JWT (two base64url JSON parts), a password inside a URL. Each is a plain
 * JavaScript regular expression written to run in linear time (no nested quantifiers, every
 * repetition bounded or over a character class the next token cannot start). Emails and phone
 * numbers are personal data, not secrets, and false positives there are common: off unless a
 * store turns them on.
 *
 * An operator's own patterns are compiled by the caller (engine/redaction.ts) with RE2, which
 * matches in linear time whatever the pattern: a user pattern can never hang a write. Pure: this
 * module compiles nothing it was not given.
 *
 * Why not an npm pattern set: secretlint (the best kept, MIT) is a linter of files. Its rules
 * report ranges for a person to read, and replacing by them went wrong on a plain sentence (its
 * AWS secret range cut the key in half); it finds neither an AWS access key id in prose nor a JWT;
 * its current major needs Node 22. The provider prefixes below are the published formats.
 */
import { z } from 'zod';

export interface RedactionPattern {
  kind: string;
  /** What it finds, for the settings view. */
  description: string;
  /** The regular expression's source (flags: g, plus those named). */
  source: string;
  flags?: string;
  /** Off unless the store turns it on (personal data rather than secrets). */
  optional?: boolean;
}

export const BUILT_IN_PATTERNS: readonly RedactionPattern[] = [
  {
    kind: 'private_key',
    description: 'a PEM private key block (RSA, EC, OpenSSH, PKCS#8, PGP, encrypted ones with their header lines), with or without its END line',
    source: '-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----\\s{0,4}(?:[A-Za-z-]{1,20}: [^\\n]{0,200}\\n){0,4}[A-Za-z0-9+/=\\s]{0,16384}(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----)?',
  },
  { kind: 'aws_access_key', description: 'an AWS access key id (AKIA…, ASIA…: 20 characters)', source: '\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b' },
  { kind: 'aws_secret_key', description: 'an AWS secret access key after its name (aws_secret_access_key = …)', source: '(?<=aws_secret_access_key["\']?\\s{0,4}[=:]\\s{0,4}["\']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])', flags: 'i' },
  { kind: 'github_token', description: 'a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)', source: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\\b' },
  { kind: 'gitlab_token', description: 'a GitLab personal access token (glpat-)', source: '\\bglpat-[A-Za-z0-9_-]{20,64}\\b' },
  { kind: 'slack_token', description: 'a Slack token (xoxb-, xoxp-, …) or incoming webhook URL', source: '\\bxox[abposr]-[A-Za-z0-9-]{10,250}\\b|https://hooks\\.slack\\.com/services/T[A-Z0-9]{6,20}/B[A-Z0-9]{6,20}/[A-Za-z0-9]{16,64}' },
  { kind: 'stripe_key', description: 'a Stripe secret or restricted key (sk_live_, rk_test_, …)', source: '\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}\\b' },
  { kind: 'openai_key', description: 'an OpenAI API key (sk-proj-…, sk-svcacct-…, sk-…T3BlbkFJ…)', source: '\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,400}|\\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\\b' },
  { kind: 'anthropic_key', description: 'an Anthropic API key (sk-ant-api03-…, sk-ant-admin01-…)', source: '\\bsk-ant-(?:api|admin)\\d{2}-[A-Za-z0-9_-]{80,200}' },
  { kind: 'google_api_key', description: 'a Google API key (AIza…, 39 characters)', source: '\\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])' },
  { kind: 'huggingface_token', description: 'a Hugging Face token (hf_…)', source: '\\bhf_[A-Za-z0-9]{34,40}\\b' },
  { kind: 'npm_token', description: 'an npm access token (npm_…)', source: '\\bnpm_[A-Za-z0-9]{36}\\b' },
  { kind: 'sendgrid_key', description: 'a SendGrid API key (SG.….…)', source: '\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])' },
  { kind: 'jwt', description: 'a JSON Web Token (header and payload are base64url JSON: eyJ….eyJ….…)', source: '\\beyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{8,4096}' },
  { kind: 'url_password', description: 'the password of a URL with credentials (scheme://user:password@host): the password only', source: '(?<=\\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\\s/:@]{1,128}:)[^\\s/@]{1,256}(?=@)' },
  { kind: 'email', description: 'an email address (personal data; off by default)', source: '\\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,8}\\.[A-Za-z]{2,24}\\b', optional: true },
  { kind: 'phone', description: 'a phone number in international form, +CC then 7 to 14 digits (personal data; off by default)', source: '(?<![\\w+])\\+\\d{1,3}(?:[ .-]?\\(?\\d{1,4}\\)?){2,5}(?![\\w])', optional: true },
];

/** The most patterns of its own a store keeps, and the longest one: bounds on what every write runs. */
export const MAX_CUSTOM_PATTERNS = 20;
export const MAX_PATTERN_CHARS = 200;

const kindName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'a kind is 1 to 40 lowercase letters, digits or _ (it shows as [redacted:<kind>])')
  .refine((k) => !BUILT_IN_PATTERNS.some((p) => p.kind === k), 'that kind is a built-in pattern; choose another name');

export const customPatternSchema = z.object({
  kind: kindName,
  pattern: z.string().min(1, 'the pattern is empty').max(MAX_PATTERN_CHARS, `a pattern is at most ${MAX_PATTERN_CHARS} characters`),
  description: z.string().max(200).optional(),
});

/** A store's policy, as `mnemo_meta` keeps it (key `redaction_policy`); absent = the default. */
export const redactionPolicySchema = z.object({
  enabled: z.boolean(),
  /** The optional built-in kinds turned on (email, phone). */
  optional: z.array(z.enum(BUILT_IN_PATTERNS.filter((p) => p.optional).map((p) => p.kind) as [string, ...string[]])).max(10),
  custom: z.array(customPatternSchema).max(MAX_CUSTOM_PATTERNS, `at most ${MAX_CUSTOM_PATTERNS} patterns of your own`),
});

export type RedactionPolicy = z.output<typeof redactionPolicySchema>;
export type CustomPattern = z.output<typeof customPatternSchema>;

export const DEFAULT_REDACTION_POLICY: RedactionPolicy = { enabled: true, optional: [], custom: [] };

/** What the replacement says: the kind, never the value. */
export const redactedMark = (kind: string): string => `[redacted:${kind}]`;

/** A compiled pattern: anything with a global `replace` (a RegExp, or an RE2 for an operator's own). */
export interface CompiledPattern {
  kind: string;
  replace(text: string, replacer: () => string): string;
}

export function compileBuiltIn(p: RedactionPattern): CompiledPattern {
  const re = new RegExp(p.source, `g${p.flags ?? ''}`);
  return { kind: p.kind, replace: (text, replacer) => text.replace(re, replacer) };
}

/** Counts of replacements by kind. */
export type RedactionCounts = Record<string, number>;

/** Replaces every match of every pattern, in order, counting each; text without a match comes back as it was. */
export function redactText(text: string, patterns: readonly CompiledPattern[], counts: RedactionCounts): string {
  let out = text;
  for (const p of patterns) {
    out = p.replace(out, () => {
      counts[p.kind] = (counts[p.kind] ?? 0) + 1;
      return redactedMark(p.kind);
    });
  }
  return out;
}

export const totalOf = (counts: RedactionCounts): number => Object.values(counts).reduce((a, b) => a + b, 0);
