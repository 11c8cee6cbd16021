/** A query whose recall is drawn on the graph: its results and the spread paths that fed them. */
import { useEffect, useState } from 'react';

export function RecallPathsControl({ query, onQuery }: { query: string; onQuery: (q: string | null) => void }) {
  const [text, setText] = useState(query);
  // Follow the URL (back/forward, a link from another view).
  useEffect(() => setText(query), [query]);
  return (
    <form
      className="block"
      onSubmit={(e) => {
        e.preventDefault();
        onQuery(text.trim() || null);
      }}
    >
      <label className="block">
        Recall paths for
        <input value={text} placeholder="a query, then Enter" onChange={(e) => setText(e.target.value)} data-testid="graph-recall-query" />
      </label>
      {query ? (
        <button type="button" className="link" onClick={() => onQuery(null)}>
          clear
        </button>
      ) : null}
    </form>
  );
}
