/**
 * LoCoMo session stamps look like "1:56 pm on 8 May, 2023". They carry no time zone, so we read
 * them as UTC: only the order and the gaps between sessions matter to retrieval, and UTC keeps a
 * run identical on every machine.
 */
import { badInput } from '../../core/errors.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const STAMP = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i;

/** Parses a session stamp to epoch seconds (UTC); a stamp in any other shape is a bad_input error. */
export function parseSessionTime(stamp: string): number {
  const m = STAMP.exec(stamp);
  if (!m) throw badInput(`cannot read the session time ${JSON.stringify(stamp)}; expected a stamp like "1:56 pm on 8 May, 2023"`);
  const [, hh, mm, ampm, day, monthName, year] = m;
  const month = MONTHS.indexOf(monthName!.toLowerCase());
  let hour = Number(hh);
  const minute = Number(mm);
  if (month < 0 || hour < 1 || hour > 12 || minute > 59) {
    throw badInput(`cannot read the session time ${JSON.stringify(stamp)}: no such month, hour or minute`);
  }
  // 12 am is midnight and 12 pm is noon (the `%I %p` reading).
  if (hour === 12) hour = 0;
  if (ampm!.toLowerCase() === 'pm') hour += 12;
  const ms = Date.UTC(Number(year), month, Number(day), hour, minute);
  if (new Date(ms).getUTCDate() !== Number(day)) throw badInput(`the session time ${JSON.stringify(stamp)} names a day its month does not have`);
  return ms / 1000;
}
