/**
 * `npm run bench -- [--quick] [--only throughput,scale,memory] [--json <file>]`, parsed without side
 * effects, and the sizes of each mode in one place.
 */

export const PIECES = ['throughput', 'scale', 'memory'] as const;
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
  --help           this text

Exit code: 0 when every target holds (always in --quick mode unless the bench itself fails),
1 when a target does not hold, 2 for a bad flag or a bench that could not run.`;

export type ParsedArgs = { ok: true; value: BenchArgs } | { ok: false; message: string };

export function parseBenchArgs(argv: readonly string[]): ParsedArgs {
  let quick = false;
  let help = false;
  let json: string | undefined;
  let only: Piece[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string | undefined => (eq >= 0 ? arg.slice(eq + 1) : argv[++i]);
    if (name === '--quick' || name === '--help') {
      if (eq >= 0) return { ok: false, message: `${name} takes no value, got "${arg}".` };
      if (name === '--quick') quick = true;
      else help = true;
    } else if (name === '--json') {
      json = value();
      if (!json || json.startsWith('--')) return { ok: false, message: '--json needs a file path.' };
    } else if (name === '--only') {
      const text = value();
      if (!text || text.startsWith('--')) return { ok: false, message: `--only needs a comma-separated list of ${PIECES.join(', ')}.` };
      const names = text.split(',').map((s) => s.trim());
      const unknown = names.find((n) => !(PIECES as readonly string[]).includes(n));
      if (unknown !== undefined) return { ok: false, message: `--only: "${unknown}" is not a piece of the bench; expected some of ${PIECES.join(', ')}.` };
      only = names as Piece[];
    } else {
      return { ok: false, message: `Unknown argument "${arg}"; run with --help for the flags.` };
    }
  }
  const chosen = only ?? [...PIECES];
  return { ok: true, value: { quick, only: PIECES.filter((p) => chosen.includes(p)), json, help } };
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
}

/**
 * Full mode stays well inside the ten minutes on a 2-core machine (about four minutes here);
 * quick mode takes about half a minute, most of it Prism's start.
 */
export function sizes(quick: boolean): Sizes {
  return quick
    ? {
        throughput: { rounds: 1, prismRounds: 1, prismSilent: false, tokenRounds: 1, roundSeconds: 1, warmupSeconds: 0.5, connections: 32, items: 10_000 },
        scale: { epochs: 1, rounds: 1, roundSeconds: 1, warmupSeconds: 0.5, connections: 2, small: 10_000, large: 1_000_000 },
        memory: { items: 1_000_000, open: 1_000, expire: 10_000, smallItems: 10_000, extraFigures: false },
      }
    : {
        throughput: { rounds: 6, prismRounds: 3, prismSilent: true, tokenRounds: 3, roundSeconds: 5, warmupSeconds: 2, connections: 32, items: 10_000 },
        scale: { epochs: 4, rounds: 3, roundSeconds: 2, warmupSeconds: 1, connections: 2, small: 10_000, large: 1_000_000 },
        memory: { items: 1_000_000, open: 1_000, expire: 10_000, smallItems: 10_000, extraFigures: true },
      };
}
