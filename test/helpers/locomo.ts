/**
 * A small LoCoMo-shaped file written for the tests (invented conversations: LoCoMo itself is
 * CC BY-NC and its text never enters the project). Two conversations with the real shapes:
 * `session_<n>` lists with stamps, an extra date key without turns, image captions, a
 * category-5 question, malformed evidence strings and an empty evidence list.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/fixture.js';

export function syntheticLocomo(): unknown[] {
  return [
    {
      sample_id: 'conv-26',
      conversation: {
        speaker_a: 'Ada',
        speaker_b: 'Ben',
        session_1_date_time: '9:15 am on 3 March, 2023',
        session_1: [
          { speaker: 'Ada', dia_id: 'D1:1', text: 'Morning Ben! I finally adopted a puppy named Biscuit.' },
          { speaker: 'Ben', dia_id: 'D1:2', text: 'No way, congratulations! What breed is she?' },
          { speaker: 'Ada', dia_id: 'D1:3', text: 'A beagle mix from the shelter.', blip_caption: 'a photo of a small dog on a couch', img_url: ['x'] },
          { speaker: 'Ben', dia_id: 'D1:4', text: 'I have been training for the city marathon lately.' },
        ],
        session_2_date_time: '7:40 pm on 20 April, 2023',
        session_2: [
          { speaker: 'Ben', dia_id: 'D2:1', text: 'I ran the marathon in Boston last weekend!' },
          { speaker: 'Ada', dia_id: 'D2:2', text: 'Amazing, how did the running go?' },
          { speaker: 'Ben', dia_id: 'D2:3', text: 'Painful knees but I finished in four hours.' },
        ],
        // A date key for a session that has no turns (conv-26 has these).
        session_3_date_time: '1:00 pm on 1 May, 2023',
      },
      qa: [
        { question: 'What did Ada adopt?', answer: 'a puppy', evidence: ['D1:1'], category: 4 },
        { question: 'When did Ben run the marathon?', answer: 'April 2023', evidence: ['D2:1'], category: 2 },
        { question: 'What breed is the dog and where is it from?', answer: 'beagle mix', evidence: ['D1:1; D1:3'], category: 1 },
        { question: 'What would Ben enjoy?', answer: 'running', evidence: [], category: 3 },
        { question: 'What did Ada paint?', adversarial_answer: 'a sunset', evidence: ['D2:2'], category: 5 },
      ],
    },
    {
      sample_id: 'conv-44',
      conversation: {
        speaker_a: 'Cleo',
        speaker_b: 'Dev',
        session_1_date_time: '12:05 pm on 9 June, 2023',
        session_1: [
          { speaker: 'Cleo', dia_id: 'D1:1', text: 'I started a pottery class downtown.' },
          { speaker: 'Dev', dia_id: 'D1:2', text: 'Pottery sounds relaxing. I am learning the violin.' },
        ],
        session_2_date_time: '12:30 am on 10 June, 2023',
        session_2: [
          { speaker: 'Cleo', dia_id: 'D2:1', text: 'My first bowl cracked in the kiln.' },
          { speaker: 'Dev', dia_id: 'D2:2', text: 'Keep at it! My violin teacher says patience wins.' },
        ],
      },
      qa: [
        { question: 'What class did Cleo start?', answer: 'pottery', evidence: ['D01:01', 'D9:9'], category: 4 },
        { question: 'What instrument does Dev learn?', answer: 'violin', evidence: ['D1:2 D2:2'], category: 1 },
      ],
    },
  ];
}

export function writeSyntheticLocomo(): string {
  const path = join(tempDir('mnemo-locomo-'), 'locomo-synthetic.json');
  writeFileSync(path, JSON.stringify(syntheticLocomo()));
  return path;
}
