/**
 * Who made a row's changes: a journalled change links to it in History (named by its label, with
 * the memory's title in place of an id prefix), an agent by its owner, a non-Mnemo program as
 * "foreign writer".
 */
import type { ChangeAuthor } from '../../../../core/api/contract/store.js';
import { buildHash } from '../../../state/router.js';
import { changeName } from '../change-name.js';
import { authorWords } from './diff-words.js';

export function AuthorList({ authors, memoryIds, headOf }: { authors: ChangeAuthor[]; memoryIds: string[]; headOf: (id: string) => string | undefined }) {
  if (authors.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="authors">
      {authors.map((a, i) => {
        const { who, kind } = authorWords(a);
        return (
          <li key={`${a.kind}-${a.change_id ?? i}-${a.credential_id ?? ''}`} data-testid="diff-author" data-author-kind={kind} data-change-id={a.change_id ?? ''}>
            {a.change_id !== null ? (
              <a href={`#${buildHash('history', null, { change: a.change_id })}`} title="Open this change in History">
                change #{a.change_id}
                {a.label ? ` ${changeName(a.label, memoryIds, headOf)}` : ''}
              </a>
            ) : null}
            {a.change_id === null ? <span className={kind === 'foreign' ? 'badge warn' : 'muted'}>{who}</span> : who ? <span className="muted"> by {who}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
