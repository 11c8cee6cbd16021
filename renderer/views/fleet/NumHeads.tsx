/** The numeric columns' header cells of the Fleet view's tables (right-aligned, each with its hint). */
export function NumHeads({ cols }: { cols: readonly { key: string; label: string; hint?: string | undefined }[] }) {
  return (
    <>
      {cols.map((c) => (
        <th key={c.key} title={c.hint} className="num">
          {c.label}
        </th>
      ))}
    </>
  );
}
