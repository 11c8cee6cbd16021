/**
 * The per-caller limits of the MCP HTTP endpoint count calls, not HTTP requests. A JSON-RPC batch is
 * many calls in one POST: before, the whole batch took one token, one in-flight place and one turn
 * of the fair share, so one POST of 100 `remember`s ran all 100 past `--rate-limit 2`, and eight
 * batches of recalls held the loop for half a minute (issue 36).
 *
 * Now each message of a POST is admitted on its own: a rate token (every message), an in-flight
 * place (every request: a call that will run), then, when it is about to run, a turn of the fair
 * share (http-fair-share.ts). A call refused gets its own JSON-RPC error inside the batch's answer,
 * with the same words and a `data.status` of 429, and runs nothing; the others run. The request's
 * first message uses the place the request took when it arrived (so a lone call over the limit is
 * still an HTTP 429, before its body is read).
 *
 * The admissions travel with the request to its session's transport (the SDK's auth info, which it
 * hands to each message of that request in order); `gateCalls` wraps the transport so that each
 * message is checked on its way in, and each call's place and turn are given back as its answer
 * goes out (or, at the latest, when the request's HTTP response closes).
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import type { FairShare } from './http-fair-share.js';
import type { InFlight, TokenBuckets } from './http-limits.js';

/** JSON-RPC's implementation-defined server error the HTTP refusals use too. */
export const REFUSED = -32001;

export type Refusal = { status: 429; message: string; retryAfterSeconds: number };

/** One admitted message's hold on the limits: its in-flight place (a call's) and, once it runs, its fair-share turn. */
export class CallTicket {
  private released = false;
  private turn: (() => void) | null = null;
  /** Called once, when the ticket is given back (the session forgets the call then). */
  onRelease: (() => void) | null = null;

  constructor(
    private readonly key: string,
    private readonly inFlight: InFlight | null,
    private readonly fairShare: FairShare,
  ) {}

  /** Waits for the call's turn in `pool` (the engine worker its session's calls run in). */
  async run(pool?: string): Promise<void> {
    const release = await this.fairShare.acquire(this.key, pool);
    // Given back before its turn came (the client went away): give the turn back at once.
    if (this.released) release();
    else this.turn = release;
  }

  /** Gives the place and the turn back; once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.inFlight?.leave(this.key);
    this.turn?.();
    this.turn = null;
    this.onRelease?.();
  }
}

export type Admission = { ok: true; ticket: CallTicket } | ({ ok: false } & Refusal);

/** The rate, in-flight and fair-share state of one server, admitting one message at a time. */
export class CallLimits {
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly inFlight: InFlight,
    private readonly fairShare: FairShare,
  ) {}

  /** A message's admission: a rate token, and for a call (`isCall`) an in-flight place too. */
  admit(key: string, isCall: boolean): Admission {
    const token = this.buckets.take(key);
    if (!token.ok) {
      const s = token.retryAfterSeconds;
      return { ok: false, status: 429, message: `too many requests from this agent; retry in ${s} ${s === 1 ? 'second' : 'seconds'}`, retryAfterSeconds: s };
    }
    if (isCall && !this.inFlight.enter(key)) {
      return { ok: false, status: 429, message: 'this agent already has as many requests running as it may; wait for one to finish', retryAfterSeconds: 1 };
    }
    return { ok: true, ticket: new CallTicket(key, isCall ? this.inFlight : null, this.fairShare) };
  }

  /** A place held since the request arrived, before its body was read (the request's first call takes it over). */
  held(key: string): CallTicket {
    return new CallTicket(key, this.inFlight, this.fairShare);
  }
}

/** The admissions of one POST's messages, in the order the transport hands them on. */
export class PostAdmissions {
  private next = 0;

  constructor(private readonly admissions: readonly Admission[]) {}

  take(): Admission | undefined {
    return this.admissions[this.next++];
  }

  /** Every place and turn given back (the HTTP response closed: nothing of this POST runs on). */
  releaseAll(): void {
    for (const a of this.admissions) if (a.ok) a.ticket.release();
  }
}

const ADMISSIONS = 'mnemoAdmissions';

/** The auth info that carries a POST's admissions to its session's transport (req.auth, read by the SDK). */
export function carrying(callerKey: string, admissions: PostAdmissions): { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> } {
  return { token: '', clientId: callerKey, scopes: [], extra: { [ADMISSIONS]: admissions } };
}

type MessageId = string | number;

/**
 * Wraps a session's transport, after its server connected to it: each incoming message passes its
 * admission (a refused call is answered with its own error and goes no further; an admitted one
 * waits for its turn among the calls of its `pool`, the session's engine worker), and each call's
 * answer going out gives its place and turn back.
 */
export function gateCalls(transport: StreamableHTTPServerTransport, pool?: string): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('gateCalls: the transport has no server connected yet');
  const running = new Map<MessageId, CallTicket[]>();
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) running.get(message.id)?.[0]?.release();
    return send(message, options);
  };
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const admissions = extra?.authInfo?.extra?.[ADMISSIONS];
    const admission = admissions instanceof PostAdmissions ? admissions.take() : undefined;
    // Messages of a request that carried no admissions (an initialize, which opens the session) go straight on.
    if (!admission) return deliver(message, extra);
    if (!admission.ok) {
      if (isJSONRPCRequest(message)) {
        const refusal = { jsonrpc: '2.0' as const, id: message.id, error: { code: REFUSED, message: admission.message, data: { status: admission.status, retry_after: admission.retryAfterSeconds } } };
        void send(refusal, { relatedRequestId: message.id }).catch(() => undefined);
      }
      return;
    }
    if (!isJSONRPCRequest(message)) {
      admission.ticket.release();
      return deliver(message, extra);
    }
    const id = message.id;
    const ticket = admission.ticket;
    running.set(id, [...(running.get(id) ?? []), ticket]);
    ticket.onRelease = () => {
      const left = (running.get(id) ?? []).filter((t) => t !== ticket);
      if (left.length > 0) running.set(id, left);
      else running.delete(id);
    };
    void ticket.run(pool).then(() => deliver(message, extra));
  };
}
