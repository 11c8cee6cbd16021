/**
 * The demo store recipe: the vocabulary a synthetic engineering team's agents write about. The
 * generator combines it into memories that look like a real fleet's (deploy skills, incident
 * episodes, todos, reflections) so the workbench, the benchmarks and reflection have something
 * realistic to chew on.
 */
export const SERVICES = [
  'billing',
  'notifier',
  'gateway',
  'payments',
  'search',
  'auth',
  'ledger',
  'scheduler',
  'exporter',
  'inventory',
  'checkout',
  'profile',
  'reports',
  'ingest',
  'mailer',
  'catalog',
  'pricing',
  'webhooks',
  'analytics',
  'uploads',
];
export const ENVS = ['staging', 'production', 'canary', 'dev', 'qa'];
export const TOOLS = ['make deploy', 'helm upgrade', 'terraform apply', 'cargo build', 'npm run build', 'poetry install', 'kubectl rollout', 'pytest -x', 'go test ./...', 'docker compose up'];
export const FILES = ['poetry.lock', 'Cargo.toml', 'package.json', 'values.yaml', 'main.tf', 'Dockerfile', 'settings.py', 'config.toml', '.env.example', 'schema.sql'];
export const PEOPLE = ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Farah', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kemi', 'Lior'];
export const SYMPTOMS = [
  'returned 502s',
  'timed out on cold start',
  'leaked connections',
  'double-charged a customer',
  'dropped webhooks',
  'ran out of disk',
  'served stale cache entries',
  'failed health checks',
  'spiked p99 latency',
  'lost the leader lock',
];
export const CAUSES = [
  'an expired TLS certificate',
  'a missing index on the orders table',
  'a retry storm from the mobile client',
  'an unpinned dependency',
  'a misconfigured connection pool',
  'clock skew between nodes',
  'a full inode table',
  'a race in the cache invalidation',
  'a stale feature flag',
  'rate limits at the upstream provider',
];
export const ENDPOINTS = ['/v1/orders', '/v1/payments', '/v1/users', '/v1/invoices', '/v1/search', '/v1/webhooks', '/v2/checkout', '/v1/reports'];
export const TAGS = ['deploy', 'ci', 'build', 'incident', 'k8s', 'database', 'config', 'security', 'perf', 'release', 'oncall', 'testing', 'docs', 'cost'];
export const PREFS = [
  'prefers small pull requests with one concern each',
  'wants migrations reviewed by two people',
  'asks for release notes in the changelog before tagging',
  'runs the linter before every push',
  'likes feature flags for risky changes',
  'expects runbooks linked from every alert',
];
export const OWNERS = ['Planner@a1', 'Planner@b2', 'Coder@c3', 'Coder@d4', 'Reviewer@r1', ''];
export const READERS = ['Planner@a1', 'Planner@b2', 'Coder@c3', 'Coder@d4', 'Reviewer@r1', 'workbench', ''];
export const EXTRA_WORDS = ['again', 'quickly', 'today', 'carefully', 'first', 'now', 'please', 'still'];
