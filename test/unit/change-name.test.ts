/** A change named for people: the id prefix in its journal label becomes the memory's title when known. */
import { describe, expect, it } from 'vitest';
import { changeName } from '../../renderer/views/history/change-name.js';

const ID = '3f2a9c1b7d0e4a5b8c6d2e1f0a9b8c7d';
const heads = new Map([[ID, 'Kiln firing schedule']]);

describe('changeName', () => {
  it('replaces the id prefix of a memory the change touched with its title', () => {
    expect(changeName('edit 3f2a9c1b (title)', [ID], (id) => heads.get(id))).toBe('edit “Kiln firing schedule” (title)');
  });
  it('keeps the label when the title is not known (yet) or the prefix is not one of its memories', () => {
    expect(changeName('edit 3f2a9c1b (title)', [ID], () => undefined)).toBe('edit 3f2a9c1b (title)');
    expect(changeName('edit 0000aaaa (title)', [ID], (id) => heads.get(id))).toBe('edit 0000aaaa (title)');
    expect(changeName('archive 12 memories', [ID], (id) => heads.get(id))).toBe('archive 12 memories');
  });
  it('shortens a long title', () => {
    expect(changeName('add info 3f2a9c1b', [ID], () => 'x'.repeat(80))).toBe(`add info “${'x'.repeat(60)}…”`);
  });
});
