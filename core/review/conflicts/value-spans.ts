/**
 * Two memories that state different values of the same thing ("the billing service is owned by
 * Dana" / "… by Lior"), found without any model: the texts are aligned word by word, and they
 * conflict when what they share is most of each, and what differs is one stretch (or two, for
 * values that are not names) made of values on both sides: names, numbers, dates, versions, hosts,
 * paths, identifiers.
 *
 * What counts as a name is read from the store itself: a capitalised word that also appears
 * capitalised in the middle of some sentence (so "Dana" is a name, "The" is not). A difference
 * in an ordinary word ("billing" / "search") is a different subject, not a different value.
 */

export type ValueKind = 'name' | 'number' | 'date' | 'version' | 'host' | 'path' | 'identifier' | 'quoted';

export interface Token {
  /** As written, without surrounding punctuation. */
  text: string;
  /** Lower case, for comparing. */
  norm: string;
  /** Its position in the text: whether it starts a sentence. */
  initial: boolean;
}

/** Words that differ between two wordings of one statement without changing what it says. */
const FILLER = new Set(['now', 'currently', 'actually', 'still', 'also', 'really', 'just', 'today', 'these', 'days', 'nowadays', 'lately', 'recently', 'anymore', 'the', 'a', 'an', 'that', 'indeed']);

/** Month names, written out and capitalised ("Jun" and "may" are too often a name and a verb). */
const MONTHS = new Set(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);

const NUMBER = /^[-+]?[$€£¥]?\d[\d,]*(?:\.\d+)?(?:%|[a-z]{1,3}|st|nd|rd|th)?$/i;
const DATE = /^(?:\d{4}-\d{1,2}-\d{1,2}(?:t[\d:.]+z?)?|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|q[1-4])$/i;
const VERSION = /^v?\d+(?:\.\d+)+(?:[-+][a-z0-9.]+)?$/i;
const HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|[^\s@]+@[^\s@]+\.[a-z]{2,}|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?)$/i;
const PATH = /^(?:\.{0,2}\/|~\/|[a-z]:\\)?[\w.-]+(?:[/\\][\w.-]+)+\/?$|^[\w-]+\.[a-z0-9]{1,5}$/i;
const IDENTIFIER = /^(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[\w-]+$|^[A-Za-z]+(?:_[A-Za-z0-9]+)+$|^[a-z]+(?:[A-Z][a-z0-9]*)+$|^[A-Z]{2,}\d*$|^#[\w-]+$/;
const CAPITALISED = /^\p{Lu}[\p{Ll}\p{M}'’-]+$/u;

const EDGE_PUNCT = /^[("'“‘[{<]+|[)"'”’\]}>.,;:!?]+$/g;
const POSSESSIVE = /['’]s$/i;

/** The words of a text, with sentence starts marked; quotes kept as one token. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let initial = true;
  for (const raw of text.split(/\s+/)) {
    if (raw === '') continue;
    const ends = /[.!?]["'”’)]*$/.test(raw) && !VERSION.test(raw.replace(/[.!?]+$/, '')) && !HOST.test(raw.replace(/[.!?]+$/, ''));
    const text = raw.replace(EDGE_PUNCT, '').replace(POSSESSIVE, '');
    if (text !== '') out.push({ text, norm: text.toLowerCase(), initial });
    initial = ends;
  }
  return out;
}

/** Capitalised words seen in the middle of a sentence: the store's names. Fed every text once. */
export class NameBook {
  private readonly names = new Map<string, number>();

  learn(tokens: readonly Token[]): void {
    for (const t of tokens) if (!t.initial && CAPITALISED.test(t.text)) this.names.set(t.norm, (this.names.get(t.norm) ?? 0) + 1);
  }

  forget(tokens: readonly Token[]): void {
    for (const t of tokens) {
      if (t.initial || !CAPITALISED.test(t.text)) continue;
      const n = (this.names.get(t.norm) ?? 0) - 1;
      if (n > 0) this.names.set(t.norm, n);
      else this.names.delete(t.norm);
    }
  }

  isName(t: Token): boolean {
    return CAPITALISED.test(t.text) && (!t.initial || this.names.has(t.norm));
  }
}

/** What kind of value a word is, or null for an ordinary word. */
export function valueKind(t: Token, names: NameBook): ValueKind | null {
  const s = t.text;
  if (/^["“‘'].*["”’']$/.test(s)) return 'quoted';
  if (DATE.test(s) || (MONTHS.has(t.norm) && CAPITALISED.test(s))) return 'date';
  if (VERSION.test(s)) return 'version';
  if (NUMBER.test(s)) return 'number';
  if (HOST.test(s)) return 'host';
  if (PATH.test(s)) return 'path';
  if (IDENTIFIER.test(s)) return 'identifier';
  if (names.isName(t)) return 'name';
  return null;
}

/** Kinds that may stand for each other (a date written as a number, a host as an identifier). */
const FAMILY: Record<ValueKind, string> = {
  name: 'name',
  quoted: 'name',
  number: 'number',
  date: 'number',
  version: 'number',
  host: 'place',
  path: 'place',
  identifier: 'place',
};

export interface ValueSpan {
  a: string;
  b: string;
  kind: ValueKind;
}

export interface ValueConflict {
  /** 0..1: how sure the alignment is that only values differ. */
  confidence: number;
  spans: ValueSpan[];
  /** The words both share, in order (a query for "what recall returns"). */
  shared: string;
}

/** The tokens that take part in the comparison (filler words dropped). */
export function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => !FILLER.has(t.norm));
}

/**
 * The skeleton a conflicting pair shares: the words with each run of values replaced by one `#`.
 * Two statements of one thing with different values have the same skeleton; it is the blocking
 * key that keeps the comparison from being all pairs.
 */
export function skeleton(tokens: readonly Token[], names: NameBook): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    const word = valueKind(t, names) ? '#' : t.norm;
    if (word === '#' && out[out.length - 1] === '#') continue;
    out.push(word);
  }
  return out;
}

/** Longest common subsequence of the two word lists, as pairs of indexes. */
function lcs(a: readonly string[], b: readonly string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const dp = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * (m + 1) + j] = a[i] === b[j] ? dp[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(dp[(i + 1) * (m + 1) + j]!, dp[i * (m + 1) + j + 1]!);
    }
  }
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      out.push([i, j]);
      i++;
      j++;
    } else if (dp[(i + 1) * (m + 1) + j]! >= dp[i * (m + 1) + j + 1]!) i++;
    else j++;
  }
  return out;
}

/** The most words a compared text may have (longer memories are not one statement). */
export const MAX_WORDS = 60;
/** Shared words needed, and their share of the longer text. */
const MIN_SHARED = 3;
const MIN_SHARED_SHARE = 0.6;

/**
 * Whether two texts state different values of one thing, and which values. `ta` and `tb` are the
 * significant tokens of each (significant()).
 */
export function valueConflict(
  ta: readonly Token[],
  tb: readonly Token[],
  names: NameBook,
  kindsOfA: readonly (ValueKind | null)[] = ta.map((t) => valueKind(t, names)),
  kindsOfB: readonly (ValueKind | null)[] = tb.map((t) => valueKind(t, names)),
): ValueConflict | null {
  if (ta.length === 0 || tb.length === 0 || ta.length > MAX_WORDS || tb.length > MAX_WORDS) return null;
  const matches = lcs(
    ta.map((t) => t.norm),
    tb.map((t) => t.norm),
  );
  // What they share is measured in ordinary words: a value is what may differ, not what anchors.
  const sharedWords = matches.filter(([i]) => kindsOfA[i] === null).length;
  const wordsOf = (kinds: readonly (ValueKind | null)[]) => kinds.filter((k) => k === null).length;
  const share = sharedWords / Math.max(wordsOf(kindsOfA), wordsOf(kindsOfB), 1);
  if (sharedWords < MIN_SHARED || share < MIN_SHARED_SHARE) return null;
  // The stretches between matches: each a hunk of a-words against b-words.
  const hunks: { a: Token[]; b: Token[]; ka: (ValueKind | null)[]; kb: (ValueKind | null)[] }[] = [];
  let pi = 0;
  let pj = 0;
  for (const [i, j] of [...matches, [ta.length, tb.length] as [number, number]]) {
    if (i > pi || j > pj) hunks.push({ a: ta.slice(pi, i), b: tb.slice(pj, j), ka: kindsOfA.slice(pi, i), kb: kindsOfB.slice(pj, j) });
    pi = i + 1;
    pj = j + 1;
  }
  const spans: ValueSpan[] = [];
  let oneSided = 0;
  for (const h of hunks) {
    // A sentence's first words are its subject: "Dana speaks Polish" / "Lior speaks Polish" are two
    // people, not two values of one thing.
    if (h.a[0] === ta[0] && h.b[0] === tb[0] && h.a.length && h.b.length) return null;
    if (h.a.length === 0 || h.b.length === 0) {
      oneSided += h.a.length + h.b.length;
      continue;
    }
    const kindsA = h.ka;
    const kindsB = h.kb;
    // Every word of a differing stretch must be a value on both sides ("billing" → "search" is another subject).
    if (kindsA.some((k) => k === null) || kindsB.some((k) => k === null)) return null;
    const ka = kindsA[0]!;
    const kb = kindsB[0]!;
    if (FAMILY[ka] !== FAMILY[kb]) return null;
    spans.push({ a: h.a.map((t) => t.text).join(' '), b: h.b.map((t) => t.text).join(' '), kind: ka });
  }
  if (spans.length === 0 || spans.length > 2 || oneSided > 2) return null;
  // Two differing names and values is two subjects with two values ("Dana's phone is 1" / "Lior's phone is 2").
  if (spans.length === 2 && spans.some((s) => FAMILY[s.kind] === 'name')) return null;
  const confidence = Math.min(1, share) * (spans.length === 1 ? 1 : 0.85) * (1 - 0.1 * oneSided);
  return { confidence: Math.round(confidence * 1000) / 1000, spans, shared: matches.map(([i]) => ta[i]!.text).join(' ') };
}
