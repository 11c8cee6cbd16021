/**
 * The shape of a subcommand and the shared argument handling: `node:util` parseArgs (a
 * well-kept parser that ships with Node) plus the project's conventions: `--json` everywhere,
 * `--now <epoch seconds>` on everything time-dependent, exit 2 for bad usage.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fixedClock, systemClock, type Clock } from '../core/clock.js';
import { badInput } from '../core/errors.js';
import type { CliIO } from './io.js';
import { isEpochSeconds } from '../core/model/limits.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  io: CliIO;
  json: boolean;
  clock: Clock;
  now: number | undefined;
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options?: OptionSpec;
  /** Accepts `--now`. */
  timed?: boolean;
  run(ctx: CommandContext): Promise<number | void> | number | void;
}

const COMMON: OptionSpec = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export function parseCommandArgs(cmd: Command, argv: string[]): { values: CommandContext['values']; positionals: string[] } {
  const options: OptionSpec = { ...COMMON, ...(cmd.options ?? {}) };
  if (cmd.timed) options['now'] = { type: 'string' };
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as CommandContext['values'], positionals };
  } catch (err) {
    throw badInput(`${(err as Error).message.replace(/^TypeError \[\w+\]: /, '')}\nusage: ${cmd.usage}`);
  }
}

export function parseNow(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  // Every write stamps `now`, so it meets the same time limits as any stored time.
  if (typeof raw !== 'string' || raw.trim() === '' || !isEpochSeconds(n)) {
    throw badInput(`--now must be epoch seconds between 1970 and 9999, got ${JSON.stringify(raw)}`, { field: 'now' });
  }
  return n;
}

export function clockFor(now: number | undefined): Clock {
  return now === undefined ? systemClock : fixedClock(now);
}

export function requirePositional(ctx: CommandContext, index: number, name: string, usage: string): string {
  const v = ctx.positionals[index];
  if (v === undefined || v === '') throw badInput(`missing <${name}>\nusage: ${usage}`);
  return v;
}

export function str(ctx: CommandContext, key: string): string | undefined {
  const v = ctx.values[key];
  return typeof v === 'string' ? v : undefined;
}

export function strs(ctx: CommandContext, key: string): string[] {
  const v = ctx.values[key];
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' ? [v] : [];
}

export function flag(ctx: CommandContext, key: string): boolean {
  return ctx.values[key] === true;
}

export function intOpt(ctx: CommandContext, key: string, fallback: number, range?: [number, number]): number {
  const raw = str(ctx, key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw badInput(`--${key} must be an integer, got ${JSON.stringify(raw)}`, { field: key });
  if (range && (n < range[0] || n > range[1])) throw badInput(`--${key} must be within [${range[0]}, ${range[1]}], got ${n}`, { field: key });
  return n;
}

export function numOpt(ctx: CommandContext, key: string): number | undefined {
  const raw = str(ctx, key);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw badInput(`--${key} must be a number, got ${JSON.stringify(raw)}`, { field: key });
  return n;
}

/**
 * An instant given on the command line (`--at`, `--from`, `--to`): epoch seconds, or an ISO 8601
 * date-time (`2026-03-01T09:30:00Z`; without a zone it is UTC). Undefined when the option is absent.
 */
export function instantOpt(ctx: CommandContext, key: string): number | undefined {
  const raw = str(ctx, key);
  if (raw === undefined) return undefined;
  const n = raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) || !raw.includes('T') ? raw : `${raw}Z`) / 1000;
  if (!isEpochSeconds(n)) {
    throw badInput(`--${key} must be an instant: epoch seconds, or an ISO 8601 date-time such as 2026-03-01T09:30:00Z; got ${JSON.stringify(raw)}`, { field: key });
  }
  return n;
}

export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.io.out(JSON.stringify(value));
}
