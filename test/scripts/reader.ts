// Child process for the two-process test: reads in a loop until it has seen `expect` writer rows.
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';

const [path, expectRows, timeoutMs] = process.argv.slice(2);
const session = new ApiSession();
session.open(path!);
const started = Date.now();
let reads = 0;
let errors = 0;
let seen = 0;
const firstErrors: string[] = [];
while (Date.now() - started < Number(timeoutMs)) {
  const res = await invoke(session, 'memory.list', { tags: ['writer'], limit: 1 });
  reads++;
  if (!res.ok) {
    errors++;
    if (firstErrors.length < 3) firstErrors.push(`${res.error.code}: ${res.error.message}`);
    continue;
  }
  seen = (res.value as { total: number }).total;
  const knn = session.engine().vectors.get(); // exercises refresh after another process's commits
  if (knn.size < 0) break;
  if (seen >= Number(expectRows)) break;
}
session.close();
process.stdout.write(JSON.stringify({ reads, errors, seen, firstErrors }));
