/**
 * `npm run bench -- [--quick] [--only throughput,scale,memory,mixed,start] [--json <file>]`, parsed with
 * node:util.parseArgs and without side effects, and the sizes of each mode in one place.
 */
import type { Result } from '../../contracts/result.ts';
import { parseArgs } from 'node:util';

export const PIECES = ['throughput', 'scale', 'memory', 'mixed', 'start'] as const;
export type Piece = (typeof PIECES)[number];

export interface BenchArgs {
  /** A few seconds per figure; targets reported, not enforced. Default false. */
  readonly quick: boolean;
  /** The pieces to run, in the order of PIECES. Default all. */
  readonly only: readonly Piece[];
  /** Also write the figures as JSON to this file. Default none. */
  readonly json: string | undefined;
  readonly help: boolean;
}

export const USAGE = `Usage: npm run bench -- [--quick] [--only <pieces>] [--json <file>]

  --quick          a few seconds per figure (CI): targets are printed but not enforced
  --only <pieces>  comma-separated subset of ${PIECES.join(', ')} (default: all)
  --json <file>    also write every figure as JSON to <file>
  --help, -h       this text

Exit code: 0 when every target holds (always in --quick mode unless the bench itself fails),
1 when a target does not hold, 2 for a bad flag or a bench that could not run.`;

export type ParsedArgs = Result<BenchArgs>;

const FLAGS = {
  quick: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  only: { type: 'string' },
  json: { type: 'string' },
} as const;

/** parseArgs's errors as one sentence each, naming the flag. */
function sentence(error: NodeJS.ErrnoException): string {
  const flag = /'([^' ]+)/.exec(error.message)?.[1] ?? '?';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unknown argument "${flag}"; run with --help for the flags.`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return `${flag} takes no value.`;
      if (flag === '--only') return `--only needs a comma-separated list of ${PIECES.join(', ')}.`;
      return `${flag} needs a value.`;
    default:
      return `${error.message.split('\n')[0]}.`;
  }
}

export function parseBenchArgs(argv: readonly string[]): ParsedArgs {
  let values: { quick?: boolean; help?: boolean; only?: string; json?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: sentence(error as NodeJS.ErrnoException) };
  }
  const { json } = values;
  // parseArgs takes `--json --quick` as a json file named "--quick"; nobody means that.
  if (json !== undefined && (json === '' || json.startsWith('--'))) return { ok: false, error: '--json needs a file path.' };
  let only: string[] | undefined;
  if (values.only !== undefined) {
    if (values.only === '' || values.only.startsWith('--')) return { ok: false, error: `--only needs a comma-separated list of ${PIECES.join(', ')}.` };
    only = values.only.split(',').map((s) => s.trim());
    const unknown = only.find((n) => !(PIECES as readonly string[]).includes(n));
    if (unknown !== undefined) return { ok: false, error: `--only: "${unknown}" is not a piece of the bench; expected some of ${PIECES.join(', ')}.` };
  }
  const chosen = only ?? [...PIECES];
  return { ok: true, value: { quick: values.quick === true, only: PIECES.filter((p) => chosen.includes(p)), json, help: values.help === true } };
}

/** How long each piece measures, per mode. */
export interface Sizes {
  readonly throughput: {
    rounds: number;
    prismRounds: number;
    prismSilent: boolean;
    tokenRounds: number;
    roundSeconds: number;
    warmupSeconds: number;
    connections: number;
    items: number;
  };
  readonly scale: { epochs: number; rounds: number; roundSeconds: number; warmupSeconds: number; connections: number; small: number; large: number };
  readonly memory: { items: number; open: number; expire: number; smallItems: number; extraFigures: boolean };
  readonly mixed: { rounds: number; roundSeconds: number; warmupSeconds: number; clients: number; items: number };
  readonly start: { runs: number };
}

/**
 * Full mode stays well inside ten minutes on a 2-core machine (about six minutes here); quick mode
 * takes under a minute, most of it Prism's start and the mixed piece's three pairs of servers.
 */
export function sizes(quick: boolean): Sizes {
  return quick
    ? {
        throughput: { rounds: 1, prismRounds: 1, prismSilent: false, tokenRounds: 1, roundSeconds: 1, warmupSeconds: 0.5, connections: 32, items: 10_000 },
        scale: { epochs: 1, rounds: 1, roundSeconds: 1, warmupSeconds: 0.5, connections: 2, small: 10_000, large: 1_000_000 },
        memory: { items: 1_000_000, open: 1_000, expire: 10_000, smallItems: 10_000, extraFigures: false },
        mixed: { rounds: 1, roundSeconds: 1, warmupSeconds: 0.5, clients: 32, items: 10_000 },
        start: { runs: 3 },
      }
    : {
        throughput: { rounds: 6, prismRounds: 3, prismSilent: true, tokenRounds: 3, roundSeconds: 5, warmupSeconds: 2, connections: 32, items: 10_000 },
        scale: { epochs: 4, rounds: 3, roundSeconds: 2, warmupSeconds: 1, connections: 2, small: 10_000, large: 1_000_000 },
        memory: { items: 1_000_000, open: 1_000, expire: 10_000, smallItems: 10_000, extraFigures: true },
        mixed: { rounds: 6, roundSeconds: 3, warmupSeconds: 2, clients: 32, items: 10_000 },
        start: { runs: 15 },
      };
}
