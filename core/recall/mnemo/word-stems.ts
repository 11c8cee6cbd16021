/**
 * The stems of recent query words, as the keyword index's tokenizer gives them. Agents' queries
 * repeat their words heavily, and each run of FTS5's tokenizer over a query (an insert, a read of
 * its vocabulary table and a delete in a private database) cost about 2 ms of a recall's 20.
 * A word's stems depend on the word alone, so a cached answer is the tokenizer's answer.
 */
export class WordStemCache {
  private readonly stems = new Map<string, readonly string[]>();

  constructor(private readonly capacity = 8192) {}

  /** Each word's stems, in order; the words not cached yet are stemmed together by `stem` (one list per word given). */
  stemsOf(words: readonly string[], stem: (words: readonly string[]) => string[][]): (readonly string[])[] {
    const missing = [...new Set(words.filter((w) => !this.stems.has(w)))];
    const fresh = missing.length ? stem(missing) : [];
    return words.map((w) => {
      const i = missing.indexOf(w);
      const found = i >= 0 ? fresh[i]! : this.stems.get(w)!;
      this.stems.delete(w); // most recently used last
      if (this.stems.size >= this.capacity) this.stems.delete(this.stems.keys().next().value!);
      this.stems.set(w, found);
      return found;
    });
  }
}

/** The order SQLite keeps FTS5 terms in: their UTF-8 bytes compared (memcmp), not UTF-16 units. */
export function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
