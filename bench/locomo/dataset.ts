/**
 * Reading locomo10.json into typed conversations. The file is validated with zod at the
 * boundary; sessions come from the `session_<n>` lists (a conversation may have date keys for
 * sessions that hold no turns), and every question's evidence is normalised against the turns of
 * its own conversation.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { badInput, notFound } from '../../core/errors.js';
import { normalizeEvidence } from './evidence.js';
import { parseSessionTime } from './session-time.js';

export const CATEGORY_NAMES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' } as const;
export type Category = keyof typeof CATEGORY_NAMES;

const turnSchema = z
  .object({
    speaker: z.string(),
    dia_id: z.string(),
    text: z.string(),
    blip_caption: z.string().optional(),
  })
  .loose();

const qaSchema = z
  .object({
    question: z.string(),
    answer: z.union([z.string(), z.number()]).optional(),
    adversarial_answer: z.string().optional(),
    evidence: z.array(z.string()).default([]),
    category: z.number().int().min(1).max(5),
  })
  .loose();

const sampleSchema = z
  .object({
    sample_id: z.string(),
    conversation: z.record(z.string(), z.unknown()),
    qa: z.array(qaSchema),
  })
  .loose();

export const locomoFileSchema = z.array(sampleSchema).min(1);

export interface Turn {
  diaId: string;
  speaker: string;
  text: string;
  caption: string | null;
  /** Position in the whole conversation (0-based), for ordering. */
  index: number;
}

export interface Session {
  n: number;
  /** Epoch seconds (UTC) of the session's stamp. */
  time: number;
  stamp: string;
  turns: Turn[];
}

export interface Question {
  qaIndex: number;
  question: string;
  answer: string | null;
  category: Category;
  /** Normalised gold turn ids of this conversation. */
  evidence: string[];
  /** Raw evidence pieces dropped by normalisation. */
  dropped: string[];
}

export interface Conversation {
  sampleId: string;
  speakers: string[];
  sessions: Session[];
  questions: Question[];
}

/** The text a turn is indexed by: "Speaker: text", plus "[shares <caption>]" when it shares an image. */
export function turnText(t: Pick<Turn, 'speaker' | 'text' | 'caption'>): string {
  return t.caption ? `${t.speaker}: ${t.text} [shares ${t.caption}]` : `${t.speaker}: ${t.text}`;
}

function parseConversation(sample: z.infer<typeof sampleSchema>): Conversation {
  const conv = sample.conversation;
  const where = `conversation ${sample.sample_id}`;
  const sessionNumbers = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  if (sessionNumbers.length === 0) throw badInput(`${where} has no session_<n> turn lists`);
  const sessions: Session[] = [];
  const turnIds = new Set<string>();
  let index = 0;
  for (const n of sessionNumbers) {
    const stamp = conv[`session_${n}_date_time`];
    if (typeof stamp !== 'string') throw badInput(`${where}: session_${n} has turns but no session_${n}_date_time stamp`);
    const parsed = z.array(turnSchema).safeParse(conv[`session_${n}`]);
    if (!parsed.success) throw badInput(`${where}: session_${n} is not a list of turns {speaker, dia_id, text}: ${parsed.error.issues[0]?.message ?? ''}`);
    const turns: Turn[] = parsed.data.map((t) => ({
      diaId: t.dia_id,
      speaker: t.speaker,
      text: t.text,
      caption: t.blip_caption && t.blip_caption.trim() !== '' ? t.blip_caption : null,
      index: index++,
    }));
    for (const t of turns) {
      if (turnIds.has(t.diaId)) throw badInput(`${where}: turn id ${t.diaId} appears twice`);
      turnIds.add(t.diaId);
    }
    sessions.push({ n, time: parseSessionTime(stamp), stamp, turns });
  }
  const speakers = [conv['speaker_a'], conv['speaker_b']].filter((s): s is string => typeof s === 'string');
  const questions: Question[] = sample.qa.map((q, qaIndex) => {
    const ev = normalizeEvidence(q.evidence, turnIds);
    return {
      qaIndex,
      question: q.question,
      answer: q.answer === undefined ? null : String(q.answer),
      category: q.category as Category,
      evidence: ev.ids,
      dropped: ev.dropped,
    };
  });
  return { sampleId: sample.sample_id, speakers, sessions, questions };
}

/** Parses the file's JSON value (already read); throws bad_input naming the first problem. */
export function parseLocomo(value: unknown): Conversation[] {
  const parsed = locomoFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badInput(`not a LoCoMo file: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unexpected shape'}; expected locomo10.json`);
  }
  return parsed.data.map(parseConversation);
}

export function loadLocomo(path: string): Conversation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw notFound(`cannot read the LoCoMo data at ${path}; pass --data <path to locomo10.json>`, { path });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badInput(`${path} is not valid JSON (${(err as Error).message}); pass --data <path to locomo10.json>`, { path });
  }
  return parseLocomo(value);
}

export function allTurns(c: Conversation): Turn[] {
  return c.sessions.flatMap((s) => s.turns);
}
