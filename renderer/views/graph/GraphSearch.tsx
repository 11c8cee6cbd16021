/** Search-to-focus: type words, pick a memory, and the graph re-centres on its neighbourhood. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';

export function GraphSearch({ onPick }: { onPick: (id: string) => void }) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const found = useQuery({
    queryKey: keys.memoryPage({ text: q, purpose: 'graph-search' }, 0),
    queryFn: () => call('memory.list', { text: q, limit: 8, sort: 'importance', dir: 'desc' }),
    enabled: q.length > 1,
  });
  return (
    <div className="graph-search">
      <input data-search data-testid="graph-search" placeholder="Search to focus  ( / )" value={text} onChange={(e) => setText(e.target.value)} />
      {q.length > 1 && found.data ? (
        <ul className="dropdown">
          {found.data.rows.length === 0 ? <li className="muted">no memory matches</li> : null}
          {found.data.rows.map((r) => (
            <li key={r.id}>
              <button
                className="link"
                data-memory-id={r.id}
                onClick={() => {
                  onPick(r.id);
                  setText('');
                }}
              >
                <span className={`type-dot t-${r.type}`} /> {r.head}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
