/**
 * Hears a PostgreSQL store's commit notifications (pg-feed-notify-ddl.ts) on a connection of its
 * own, so a live view checks the feed the moment another process commits instead of at its next
 * poll. It only wakes the caller: what changed is still read from the feed by the store's own
 * connection, so a missed or late notification costs latency (the poll still runs), never a change.
 *
 * This connection is asynchronous (`pg` on the caller's event loop, not the synchronous bridge):
 * it waits for notifications for the process's life, and must not hold the thread that serves
 * requests. It reconnects after a lost connection, waiting longer each time up to a minute.
 */
import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { PG_FEED_CHANNEL } from './pg-feed-notify-ddl.js';
import type { PgStoreUrl } from './pg-url.js';

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;

export class PgChangeNotices {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly url: PgStoreUrl,
    private readonly onCommit: () => void,
  ) {}

  /** Starts listening; `onCommit` runs after each commit that wrote the store's feed (ours too). */
  static listen(url: PgStoreUrl, onCommit: () => void): PgChangeNotices {
    const notices = new PgChangeNotices(url, onCommit);
    void notices.connect();
    return notices;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new (pgDriver().Client)({ connectionString: this.url.connection, application_name: 'mnemo-live' });
    this.client = client;
    client.on('notification', (n) => {
      if (n.channel === PG_FEED_CHANNEL && n.payload === this.url.schema) this.onCommit();
    });
    client.on('error', () => this.reconnectLater(client));
    client.on('end', () => this.reconnectLater(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_FEED_CHANNEL}`);
      this.retryMs = FIRST_RETRY_MS;
      // Commits made while no connection listened were not heard: tell the caller to look.
      this.onCommit();
    } catch {
      this.reconnectLater(client);
    }
  }

  private reconnectLater(client: pg.Client): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref?.();
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
