/**
 * The CLI's flags, parsed without side effects (mock/cli.ts does the reading of files and the
 * listening): `--name value` or `--name=value`; a bad flag gives one sentence saying what was
 * expected and what came.
 */
import { parsePeriod, parseRate } from '../contracts/duration.ts';
import type { MockOptions } from './app.ts';
import { type FaultName, isFaultName } from './faults.ts';
import { isVariantName, type VariantName } from './variants.ts';

export interface CliOptions {
  /** Options for createMock, without `clients` (read from `clientsFile` by the CLI) and `log`. */
  readonly mock: MockOptions;
  readonly clientsFile: string | undefined;
  /** One line per request on stderr. */
  readonly log: boolean;
  readonly help: boolean;
}

export type ParsedFlags = { ok: true; value: CliOptions } | { ok: false; message: string };

export const USAGE = `Usage: npm run mock -- [flags]

  --host <address>        interface to listen on (default 127.0.0.1)
  --auth-port <port>      port of the auth origin, 0 = any free port (default 0)
  --api-port <port>       port of the api origin, 0 = any free port (default 0)
  --items <n>             seeded content items (default 250)
  --users <n>             seeded users (default 50)
  --seed <n>              seed of the generated data (default 1)
  --rate <n/period>       requests per window per client, e.g. 200/1m; 0 = no limit (default 200/1m)
  --token-ttl <period>    access token lifetime, e.g. 60d, 1h (default 60d)
  --snapshot-ttl <period> snapshot lifetime without a next request (default 2m)
  --token-throttle <n/period>  failed token requests allowed per client_id, e.g. 10/1m; 0 = no throttling (default 10/1m)
  --clients <file>        JSON array of clients {id, secret, scopes, provider?, rate?, tokenTtl?}
  --no-control            no /_mock control plane
  --log                   one line per request on stderr (never tokens, secrets or cursors)
  --fault <name>          break one rule (repeatable; see mock/faults.ts)
  --variant <name>        a legal variant (repeatable; see mock/variants.ts)
  --help                  this text

Once listening, prints one JSON line: {"authUrl","baseUrl","controlUrl"}.`;

const VALUE_FLAGS = new Set([
  'host',
  'auth-port',
  'api-port',
  'items',
  'users',
  'seed',
  'rate',
  'token-ttl',
  'snapshot-ttl',
  'token-throttle',
  'clients',
  'fault',
  'variant',
]);
const SWITCHES = new Set(['no-control', 'log', 'help']);
const REPEATABLE = new Set(['fault', 'variant']);
/** More seeded rows than this would only exhaust memory of the fragment caches, not test anything. */
const MAX_ROWS = 10_000_000;

const PERIOD_HINT = 'a period like 30s, 2m, 12h or 60d';

function integer(flag: string, text: string, min: number, max: number): number | string {
  if (!/^\d{1,10}$/.test(text) || Number(text) < min || Number(text) > max) return `--${flag} must be an integer from ${min} to ${max}, got "${text}".`;
  return Number(text);
}

export function parseFlags(argv: readonly string[]): ParsedFlags {
  const mock: MockOptions = {};
  const faults: FaultName[] = [];
  const variants: VariantName[] = [];
  const seen = new Set<string>();
  let clientsFile: string | undefined;
  let log = false;
  let help = false;
  const fail = (message: string): ParsedFlags => ({ ok: false, message });

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--'))
      return fail(arg === '-h' ? 'Use --help for the list of flags.' : `Unexpected argument "${arg}": every option is a flag starting with --.`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (SWITCHES.has(name)) {
      if (eq >= 0) return fail(`--${name} takes no value, got "${arg}".`);
      if (name === 'no-control') mock.control = false;
      else if (name === 'log') log = true;
      else help = true;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) return fail(`Unknown flag "--${name}"; run with --help for the list of flags.`);
    if (seen.has(name) && !REPEATABLE.has(name)) return fail(`--${name} is given more than once.`);
    seen.add(name);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const following = argv[i + 1];
      if (following === undefined || following.startsWith('--')) return fail(`--${name} needs a value.`);
      value = following;
      i++;
    }
    if (value === '') return fail(`--${name} needs a value, got an empty one.`);

    switch (name) {
      case 'host':
        mock.host = value;
        break;
      case 'auth-port':
      case 'api-port': {
        const port = integer(name, value, 0, 65_535);
        if (typeof port === 'string') return fail(port);
        if (name === 'auth-port') mock.authPort = port;
        else mock.apiPort = port;
        break;
      }
      case 'items':
      case 'users': {
        const rows = integer(name, value, 0, MAX_ROWS);
        if (typeof rows === 'string') return fail(rows);
        if (name === 'items') mock.items = rows;
        else mock.users = rows;
        break;
      }
      case 'seed': {
        const seed = integer(name, value, 0, 4_294_967_295);
        if (typeof seed === 'string') return fail(seed);
        mock.seed = seed;
        break;
      }
      case 'rate': {
        const rate = parseRate(value);
        if (rate === undefined) return fail(`--rate must be requests/period like 200/1m (period in s, m, h or d), or 0 for no limit, got "${value}".`);
        mock.rate = rate;
        break;
      }
      case 'token-throttle': {
        const rate = parseRate(value);
        if (rate === undefined) return fail(`--token-throttle must be failures/period like 10/1m, or 0 for no throttling, got "${value}".`);
        mock.tokenThrottle = rate;
        break;
      }
      case 'token-ttl':
      case 'snapshot-ttl': {
        const seconds = parsePeriod(value);
        if (seconds === undefined) return fail(`--${name} must be ${PERIOD_HINT}, got "${value}".`);
        if (name === 'token-ttl') mock.tokenTtlSeconds = seconds;
        else mock.snapshotTtlSeconds = seconds;
        break;
      }
      case 'clients':
        clientsFile = value;
        break;
      case 'fault':
        if (!isFaultName(value)) return fail(`--fault "${value}" is not a known fault (the names are in mock/faults.ts).`);
        faults.push(value);
        break;
      case 'variant':
        if (!isVariantName(value)) return fail(`--variant "${value}" is not a known variant (the names are in mock/variants.ts).`);
        variants.push(value);
        break;
    }
  }
  if (faults.length > 0) mock.faults = faults;
  if (variants.length > 0) mock.variants = variants;
  return { ok: true, value: { mock, clientsFile, log, help } };
}
