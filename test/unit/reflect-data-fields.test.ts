/** The fast `data` reader must always answer what JSON.parse answers. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createMemory, accessRecord } from '../../core/model/memory.js';
import { encodeData } from '../../core/store/port/codec.js';
import { parseDataFields, readDataFields } from '../../core/reflect/data-fields.js';
import { FIXTURE_STORE } from '../../support/fixture.js';

describe('readDataFields', () => {
  it('equals the full parse on every fixture row', () => {
    const db = new Database(FIXTURE_STORE, { readonly: true });
    const rows = db.prepare('SELECT data FROM memories').all() as { data: string }[];
    db.close();
    for (const r of rows) expect(readDataFields(r.data)).toEqual(parseDataFields(r.data));
  });

  it('is not fooled by look-alike text, nested keys or another writer\'s layout', () => {
    const m = createMemory(
      {
        content: 'quoted "confidence": 0.1, and "ts": 5, "channel": "recalled" inside text',
        title: 'a "title": null trap',
        tags: ['x]', 'y, "z"'],
        confidence: 0.75,
        reinforcement_count: 3,
        trigger: { kind: 'cue', cue: 'deploy', tags: ['not', 'these'] },
      },
      100,
    );
    m.access_log.push(accessRecord(150, 'recalled', { query: '"ts": 1, "channel": "deref"' }));
    const text = encodeData(m);
    expect(readDataFields(text)).toEqual(parseDataFields(text));
    expect(readDataFields(text).tags).toEqual(['x]', 'y, "z"']);
    expect(readDataFields(text).access_log).toEqual([
      { ts: 100, channel: 'created' },
      { ts: 150, channel: 'recalled' },
    ]);
    const compact = JSON.stringify(JSON.parse(text));
    expect(readDataFields(compact)).toEqual(parseDataFields(compact));
    expect(readDataFields('not json')).toEqual(parseDataFields('not json'));
  });
});
