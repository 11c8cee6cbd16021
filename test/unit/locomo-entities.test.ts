import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../bench/locomo/entities.js';

describe('entity extraction for ingested turns', () => {
  it('keeps capitalised names and multi-word names, lower-cased, without duplicates', () => {
    expect(extractEntities('I ran the Boston Marathon with Maria, then Maria went to Paris.')).toEqual(['boston marathon', 'maria', 'paris']);
  });

  it('skips sentence openers, greetings and pronouns, and a possessive s', () => {
    expect(extractEntities('Hey there! Thanks so much. It was great. Yes, I loved it.')).toEqual([]);
    expect(extractEntities("Hey Jon! Jon's dog is cute.")).toEqual(['jon']);
    expect(extractEntities('My LGBTQ group met')).toEqual(['lgbtq']);
  });
});
