/**
 * A memory's title as every list shows it: its title, else its content, newlines as spaces,
 * trimmed and cut at `max` characters. The same rule as the engine's heads (core's memoryHead),
 * for the places where the renderer holds a whole memory rather than a head from the engine.
 */
export function memoryTitle(m: { title: string | null; content: string }, max = 120): string {
  const text = (m.title || m.content).replace(/\s*\n\s*/g, ' ').trim();
  return [...text].slice(0, max).join('');
}
