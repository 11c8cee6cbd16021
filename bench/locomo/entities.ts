/**
 * A deliberately simple entity extractor for ingested turns: runs of capitalised words that are
 * not sentence openers, greetings or pronouns ("Paris", "Boston Marathon", "LGBTQ"). An agent that
 * writes memories would name entities itself; this stands in for it without any model.
 */

const NOT_ENTITIES = new Set(
  (
    'i im ive id ill the a an and but so or oh hey hi hello yes no yeah yep nope it its that thats this these those what how why who which where when ' +
    'thanks thank wow me my we our you your he she they them his her their do did does have has had is are was were been be can could would will just ' +
    'not great good awesome sure totally absolutely definitely glad sounds love nice cool lol haha okay ok well right really also if as at in on for to ' +
    'of with from by after before then there here all some any one let keep see take bye talk catch congrats congratulations hope anyway speaking plus ' +
    'maybe sorry aww ah hmm wishing happy best enjoy btw omg gonna hang like same exactly true agreed'
  ).split(' '),
);

/** Lower-cased entity strings found in `text`, first occurrence order, without duplicates. */
export function extractEntities(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*)*/g)) {
    const words = m[0].split(/\s+/);
    // Drop leading words that are only capitalised because they open a sentence or are fillers.
    while (words.length > 0 && NOT_ENTITIES.has(words[0]!.toLowerCase().replace(/['’]/g, ''))) words.shift();
    if (words.length === 0) continue;
    const entity = words.join(' ').replace(/['’]s$/i, '').toLowerCase();
    if (entity.length < 2 || out.includes(entity)) continue;
    out.push(entity);
  }
  return out;
}
