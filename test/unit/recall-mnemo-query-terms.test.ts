import { describe, expect, it } from 'vitest';
import { ftsOrQuery, queryTerms } from '../../core/recall/mnemo/query-terms.js';

const all = { stopWords: true, questionWords: true, maxTerms: 32 };

describe('mnemo query terms', () => {
  it('drops function words and question words, keeps the content words once, in order', () => {
    expect(queryTerms('When did Caroline go to the LGBTQ support group? The group!', all)).toEqual(['caroline', 'go', 'lgbtq', 'support', 'group']);
  });

  it('keeps each kind of word when its switch is off', () => {
    expect(queryTerms('What did she paint?', { ...all, questionWords: false })).toEqual(['what', 'paint']);
    expect(queryTerms('What did she paint?', { ...all, stopWords: false })).toEqual(['did', 'she', 'paint']);
  });

  it('reads letters and digits of any script and caps the number of terms', () => {
    expect(queryTerms('Café in Zürich 2023', all)).toEqual(['café', 'zürich', '2023']);
    expect(queryTerms('alpha beta gamma delta', { ...all, maxTerms: 2 })).toEqual(['alpha', 'beta']);
    expect(queryTerms('what is it?', all)).toEqual([]);
  });

  it('quotes every term so none is read as an FTS5 operator, optionally inside one column', () => {
    expect(ftsOrQuery(['near', 'or', 'x"y'])).toBe('"near" OR "or" OR "x""y"');
    expect(ftsOrQuery(['a', 'b'], 'body')).toBe('{body} : ("a" OR "b")');
  });
});
