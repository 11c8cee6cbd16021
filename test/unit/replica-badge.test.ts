/**
 * The replica badge's words (renderer/components/replica-lines.ts): each replica's line says its
 * state and lag as the engine reports them (store.replicas), and a lag in bytes reads as people
 * read it. A line must never call a down or behind replica streaming, nor hide its error.
 */
import { describe, expect, it } from 'vitest';
import { bytes, replicaLine } from '../../renderer/components/replica-lines.js';
import type { PgReplicaStatus } from '../../core/store/port/port.js';

const base: PgReplicaStatus = { url: 'postgres://mnemo:***@standby/memory', state: 'streaming', lag_bytes: 0, lag_seconds: 0, replay_lsn: '0/3000148', served: 1234, fell_back: 2, wait_ms: 1000, error: null };

describe('the replica badge', () => {
  it('reads a lag in bytes, kilobytes and megabytes', () => {
    expect(bytes(0)).toBe('0 B');
    expect(bytes(1023)).toBe('1023 B');
    expect(bytes(2048)).toBe('2.0 kB');
    expect(bytes(5 * 1024 * 1024 + 1)).toBe('5.0 MB');
  });

  it('says each state with the engine own figures', () => {
    expect(replicaLine(base)).toBe('postgres://mnemo:***@standby/memory — streaming, 0 B behind; 1,234 reads served, 2 sent elsewhere');
    expect(replicaLine({ ...base, lag_bytes: 4096, lag_seconds: 1.25 })).toContain('streaming, 4.0 kB behind (1.3 s)');
    expect(replicaLine({ ...base, state: 'behind', lag_bytes: 300 })).toContain("behind: reads go to the primary until it replays this session's writes (300 B behind)");
    const down = replicaLine({ ...base, state: 'down', lag_bytes: null, lag_seconds: null, error: 'connection refused' });
    expect(down).toContain('down: connection refused');
    expect(down).not.toContain('streaming');
    expect(replicaLine({ ...base, state: 'not_standby', lag_bytes: null })).toContain('not standby, lag unknown');
  });
});
