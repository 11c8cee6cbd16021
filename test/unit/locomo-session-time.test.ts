import { describe, expect, it } from 'vitest';
import { parseSessionTime } from '../../bench/locomo/session-time.js';

const utc = (y: number, mo: number, d: number, h: number, mi: number) => Date.UTC(y, mo - 1, d, h, mi) / 1000;

describe('LoCoMo session stamps', () => {
  it('reads "1:56 pm on 8 May, 2023" as UTC epoch seconds', () => {
    expect(parseSessionTime('1:56 pm on 8 May, 2023')).toBe(utc(2023, 5, 8, 13, 56));
    expect(parseSessionTime('10:37 am on 27 June, 2023')).toBe(utc(2023, 6, 27, 10, 37));
  });

  it('reads 12 am as midnight and 12 pm as noon, in any letter case', () => {
    expect(parseSessionTime('12:05 AM on 1 January, 2024')).toBe(utc(2024, 1, 1, 0, 5));
    expect(parseSessionTime('12:05 pm on 1 january, 2024')).toBe(utc(2024, 1, 1, 12, 5));
  });

  it('rejects other shapes, unknown months and impossible days with a message that shows the expected shape', () => {
    expect(() => parseSessionTime('2023-05-08 13:56')).toThrow(/like "1:56 pm on 8 May, 2023"/);
    expect(() => parseSessionTime('1:56 pm on 8 Mayo, 2023')).toThrow(/no such month/);
    expect(() => parseSessionTime('13:56 pm on 8 May, 2023')).toThrow(/no such month, hour or minute/);
    expect(() => parseSessionTime('1:56 pm on 31 April, 2023')).toThrow(/day its month does not have/);
  });
});
