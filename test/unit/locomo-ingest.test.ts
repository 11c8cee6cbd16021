import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { loadLocomo } from '../../bench/locomo/dataset.js';
import { ingestConversation, memoryIdFor, TURN_SPACING_S } from '../../bench/locomo/ingest.js';
import { writeSyntheticLocomo } from '../helpers/locomo.js';

function ingest(opts: Parameters<typeof ingestConversation>[2] = {}) {
  const [conv] = loadLocomo(writeSyntheticLocomo());
  const engine = Engine.open(':memory:', { create: true, clock: fixedClock(0) });
  return { conv: conv!, engine, result: ingestConversation(engine, conv!, opts) };
}

describe('LoCoMo ingestion', () => {
  it('writes one episode per turn with "Speaker: text [shares caption]" and the speaker as entity', () => {
    const { engine, result } = ingest();
    expect(result.turns).toBe(7);
    expect(result.sessions).toBe(2);
    const m = engine.store.get(memoryIdFor('conv-26', 'D1:3'))!;
    expect(m.type).toBe('episode');
    expect(m.content).toBe('Ada: A beagle mix from the shelter. [shares a photo of a small dog on a couch]');
    expect(m.entities).toEqual(['Ada']);
    expect(result.diaOf.get(m.id)).toBe('D1:3');
    engine.close();
  });

  it('dates each turn at its session stamp plus one minute per turn, and ends the conversation after the last turn', () => {
    const { conv, engine, result } = ingest();
    const s2 = conv.sessions[1]!;
    expect(engine.store.get(memoryIdFor('conv-26', 'D2:1'))!.created_at).toBe(s2.time);
    expect(engine.store.get(memoryIdFor('conv-26', 'D2:3'))!.created_at).toBe(s2.time + 2 * TURN_SPACING_S);
    expect(result.endTime).toBe(s2.time + 3 * TURN_SPACING_S);
    engine.close();
  });

  it('links each turn part_of its session and precedes the next turn of the same session only', () => {
    const { engine } = ingest();
    const edges = (dia: string) => engine.store.get(memoryIdFor('conv-26', dia))!.edges.map((e) => [e.type, e.target_id]);
    expect(edges('D1:1')).toEqual([
      ['part_of', memoryIdFor('conv-26', 'S1')],
      ['precedes', memoryIdFor('conv-26', 'D1:2')],
    ]);
    expect(edges('D1:4')).toEqual([['part_of', memoryIdFor('conv-26', 'S1')]]);
    const session = engine.store.get(memoryIdFor('conv-26', 'S1'))!;
    expect(session.content).toBe('Conversation session 1 between Ada and Ben, 9:15 am on 3 March, 2023');
    engine.close();
  });

  it('adds extracted names on request, and can leave out the session and turn edges', () => {
    const { engine, result } = ingest({ extractEntities: true, sessionEdges: false, turnEdges: false });
    expect(result.sessions).toBe(0);
    const m = engine.store.get(memoryIdFor('conv-26', 'D2:1'))!;
    expect(m.entities).toEqual(['Ben', 'boston']);
    expect(m.edges).toEqual([]);
    expect(engine.store.get(memoryIdFor('conv-26', 'S1'))).toBeNull();
    engine.close();
  });
});
