/**
 * Resumable streams for one MCP HTTP session: the SDK asks to store every message it sends on an
 * SSE stream, and when a client reconnects with Last-Event-ID it replays what followed on that
 * stream. Kept in memory and bounded (oldest dropped first), since a session that never resumes
 * must not grow without end.
 */
import type { EventStore, EventId, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const DEFAULT_EVENTS_KEPT = 500;

interface StoredEvent {
  id: EventId;
  stream: StreamId;
  message: JSONRPCMessage;
}

export class BoundedEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private seq = 0;

  constructor(private readonly keep = DEFAULT_EVENTS_KEPT) {}

  storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The stream is part of the id, so a resume finds its stream even after older events are dropped.
    const id = `${stream}|${++this.seq}`;
    this.events.push({ id, stream, message });
    if (this.events.length > this.keep) this.events.splice(0, this.events.length - this.keep);
    return Promise.resolve(id);
  }

  getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    const cut = id.lastIndexOf('|');
    return Promise.resolve(cut > 0 ? id.slice(0, cut) : undefined);
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const stream = await this.getStreamIdForEventId(lastEventId);
    if (stream === undefined) return '';
    const after = Number(lastEventId.slice(stream.length + 1));
    for (const e of this.events) {
      if (e.stream === stream && Number(e.id.slice(stream.length + 1)) > after) await send(e.id, e.message);
    }
    return stream;
  }
}
