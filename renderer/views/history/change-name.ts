/**
 * A change's name for people: its journal label ("edit 3f2a9c1b (title)") with the memory's id
 * prefix replaced by the memory's title or first words, when the change touched that memory.
 */
const ID_PREFIX = /\b[0-9a-f]{8}\b/g;

export function changeName(label: string, memoryIds: string[], headOf: (id: string) => string | undefined): string {
  return label.replace(ID_PREFIX, (prefix) => {
    const id = memoryIds.find((m) => m.startsWith(prefix));
    const head = id === undefined ? undefined : headOf(id);
    return head ? `“${head.length > 60 ? `${head.slice(0, 60)}…` : head}”` : prefix;
  });
}
