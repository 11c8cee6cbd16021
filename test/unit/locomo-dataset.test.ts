import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allTurns, loadLocomo, parseLocomo, turnText } from '../../bench/locomo/dataset.js';
import { tempDir } from '../../support/fixture.js';
import { syntheticLocomo, writeSyntheticLocomo } from '../helpers/locomo.js';

describe('LoCoMo loader', () => {
  it('builds sessions from the session_<n> lists, not from the date keys', () => {
    const [a, b] = loadLocomo(writeSyntheticLocomo());
    expect(a!.sampleId).toBe('conv-26');
    expect(a!.speakers).toEqual(['Ada', 'Ben']);
    expect(a!.sessions.map((s) => s.n)).toEqual([1, 2]); // session_3 has a stamp but no turns
    expect(allTurns(a!).map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(a!.sessions[1]!.time).toBe(Date.UTC(2023, 3, 20, 19, 40) / 1000);
    expect(b!.sessions[1]!.time).toBe(Date.UTC(2023, 5, 10, 0, 30) / 1000);
  });

  it('renders a turn as "Speaker: text", with the image caption when there is one', () => {
    const [a] = loadLocomo(writeSyntheticLocomo());
    const turns = allTurns(a!);
    expect(turnText(turns[0]!)).toBe('Ada: Morning Ben! I finally adopted a puppy named Biscuit.');
    expect(turnText(turns[2]!)).toBe('Ada: A beagle mix from the shelter. [shares a photo of a small dog on a couch]');
  });

  it('normalises every question’s evidence against its own conversation and keeps what was dropped', () => {
    const [a, b] = loadLocomo(writeSyntheticLocomo());
    expect(a!.questions.map((q) => q.evidence)).toEqual([['D1:1'], ['D2:1'], ['D1:1', 'D1:3'], [], ['D2:2']]);
    expect(a!.questions[4]!.category).toBe(5);
    expect(a!.questions[4]!.answer).toBeNull();
    expect(b!.questions[0]!.evidence).toEqual(['D1:1']);
    expect(b!.questions[0]!.dropped).toEqual(['D9:9']);
    expect(b!.questions[1]!.evidence).toEqual(['D1:2', 'D2:2']);
  });

  it('refuses a file that is not LoCoMo-shaped, naming the problem', () => {
    expect(() => parseLocomo({})).toThrow(/not a LoCoMo file/);
    expect(() => parseLocomo([{ sample_id: 'x', conversation: {}, qa: [] }])).toThrow(/no session_<n> turn lists/);
    const noStamp = syntheticLocomo() as { conversation: Record<string, unknown> }[];
    delete noStamp[0]!.conversation['session_2_date_time'];
    expect(() => parseLocomo(noStamp)).toThrow(/session_2 has turns but no session_2_date_time/);
    const dup = syntheticLocomo() as { conversation: Record<string, { dia_id: string }[]> }[];
    dup[0]!.conversation['session_2']![0]!.dia_id = 'D1:1';
    expect(() => parseLocomo(dup)).toThrow(/D1:1 appears twice/);
  });

  it('reports a missing or unreadable file as a clear error', () => {
    expect(() => loadLocomo(join(tempDir(), 'nope.json'))).toThrow(/pass --data/);
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, '{oops');
    expect(() => loadLocomo(bad)).toThrow(/not valid JSON/);
  });
});
