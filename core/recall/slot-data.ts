/** What the recall corpus (corpus.ts) keeps per memory for scoring, beside its id, owner and content. */
export interface SlotData {
  type: string;
  importance: number;
  title: string | null;
  tags: string[];
  cues: Set<string>;
  actr: Float64Array;
}
