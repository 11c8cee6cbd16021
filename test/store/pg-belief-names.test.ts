/**
 * The longest entity and attribute names the doors accept fit PostgreSQL's indexes
 * (core/beliefs/observation.ts MAX_NAME_BYTES). A name is an index key there (the dimension's
 * primary key, the delta log's index, an alias's key, a journal row's key), and a btree entry
 * holds at most 2704 bytes.
 *
 * What could go wrong: a name within the old bound of 1000 characters but not of bytes (emoji are
 * four bytes each) fails at the server as an `internal` error naming an index; or SQLite accepts a
 * name that a copy of its store to PostgreSQL then cannot hold.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { MAX_NAME_BYTES } from '../../core/beliefs/observation.js';
import { tempDir } from '../../support/temp-dirs.js';
import { runCli } from '../helpers/cli.js';
import { pgStores } from '../helpers/pg-stores.js';

const NOW = 1_790_000_000;
/** `n` four-byte characters, varied so that nothing compresses them into a shorter index entry. */
const emoji = (n: number, seed: number) => Array.from({ length: n }, (_, k) => String.fromCodePoint(0x1f300 + ((k * 7919 + seed) % 1000))).join('');
const bytes = (s: string) => new TextEncoder().encode(s).length;

type Reply = { ok: boolean; value?: any; error?: { code: string; message: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('entity and attribute names at the longest the doors accept', () => {
  const pg = pgStores(['pgnames_longest']);

  const sessionOn = (location: string) => {
    const session = new ApiSession({ clock: fixedClock(NOW) });
    pg.track(session);
    session.open(location);
    return (method: string, input: unknown) => invoke(session, method, input) as Promise<Reply>;
  };

  it('fit PostgreSQL: observed, merged as aliases, undone; one byte more is refused on both backends alike', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const sqlite = join(tempDir(), 'names.sqlite');
    expect((await runCli(['init', sqlite])).code).toBe(0);
    pg.connect('pgnames_longest', fixedClock(NOW));
    for (const call of [sessionOn(pg.storeUrl('pgnames_longest')), sessionOn(sqlite)]) {
      const entity = emoji(MAX_NAME_BYTES / 4, 1);
      const twin = emoji(MAX_NAME_BYTES / 4, 2);
      const attribute = emoji(MAX_NAME_BYTES / 4, 3);
      expect(bytes(entity) + bytes(attribute)).toBe(2 * MAX_NAME_BYTES);
      for (const e of [entity, twin]) {
        const observed = await call('beliefs.observe', { observation: { entity: e, attribute, value: 'red', t: NOW - 10 } });
        expect(observed.error).toBeUndefined();
      }
      const merged = await call('beliefs.aliases.apply', { merges: [{ alias: twin, canonical: entity }] });
      expect(merged.error).toBeUndefined();
      expect(merged.value.merged).toEqual([{ alias: twin, canonical: entity }]);
      expect((await call('beliefs.get', { entity, attribute })).ok).toBe(true);
      expect((await call('journal.undo', { change_id: merged.value.change_id })).error).toBeUndefined();

      // Within 1000 characters but past 1000 bytes: refused at the door, naming the field and its size.
      const tooLong = emoji(MAX_NAME_BYTES / 4 + 1, 4);
      for (const observation of [
        { entity: tooLong, attribute: 'colour', value: 'red', t: NOW },
        { entity: 'lamp', attribute: tooLong, value: 'red', t: NOW },
      ]) {
        const refused = await call('beliefs.observe', { observation });
        expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/(entity|attribute) is 1004 bytes in UTF-8; the most is 1000/) } });
      }
      // Both names within 1000 characters (499 emoji), together past a btree entry: PostgreSQL
      // answered `internal` (index row size 4024 exceeds … "idx_mnemo_deltas_dim") where SQLite took them.
      const both = await call('beliefs.observe', { observation: { entity: emoji(499, 5), attribute: emoji(499, 6), value: 'red', t: NOW } });
      expect(both).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/entity is 1996 bytes in UTF-8/) } });
      const ingest = await call('beliefs.ingest', { jsonl: [JSON.stringify({ entity: 'lamp', attribute: 'colour', value: 'red', t: NOW }), JSON.stringify({ entity: tooLong, attribute: 'colour', value: 'red', t: NOW })].join('\n') });
      expect(ingest).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/^line 2: .*entity is 1004 bytes/) } });
      const alias = await call('beliefs.aliases.apply', { merges: [{ alias: tooLong, canonical: entity }] });
      expect(alias).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/alias is 1004 bytes/) } });
    }
  });
});
