/** The CLI's flags via node:util.parseArgs, without side effects (mock/cli.ts has those); a bad flag gets one sentence. Other CLIs add flags with `extra`. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parsePeriod, parseRate } from '../contracts/duration.ts';
import { fail, ok, type Result } from '../util/result.ts';
import type { MockOptions } from './app.ts';
import { checkHostNames } from './routes.ts';

type Flags = NonNullable<ParseArgsConfig['options']>;

export interface CliOptions {
  /** Options for createMock, without `clients` and `profile` (read from the files named below by the CLI) and `log`. */
  readonly mock: MockOptions;
  readonly clientsFile: string | undefined;
  /** `--profile`: a built-in profile's name or a profile file. */
  readonly profile: string | undefined;
  /** One line per request (and per client finding) on stderr. */
  readonly log: boolean;
  /** HTTPS: none, a certificate the CLI makes (its CA written to `caFile`, or to a new temporary folder), or the user's files. */
  readonly tls:
    | { readonly kind: 'none' }
    | { readonly kind: 'made'; readonly caFile: string | undefined }
    | { readonly kind: 'files'; readonly cert: string; readonly key: string };
  readonly help: boolean;
  /** Values of the `extra` flags, by name (a repeatable flag gives a list). */
  readonly extra: Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>;
}

export const USAGE = `Usage: npm run mock -- [flags]

  --profile <name|file>   behaviour where the API document leaves a choice open: strict (default),
                          platform, lenient, or a profile file (schemas/profile.schema.json)
  --host <address>        interface to listen on (default 127.0.0.1)
  --auth-port <port>      port of the auth origin, 0 = any free port (default 0)
  --api-port <port>       port of the api origin, 0 = any free port (default 0)
  --host-name <name>      one port for both origins, told apart by the Host header: the auth origin
                          is <name>, the api origin api.<name> (point both names at --host yourself:
                          /etc/hosts, curl --resolve); replaces --auth-port and --api-port
  --api-host-name <name>  the api origin's name with --host-name (default api.<name>)
  --port <port>           the one port of --host-name, 0 = any free port (default 0)
  --tls                   HTTPS on both origins, with a certificate made at start for the names served
                          (--host, localhost, 127.0.0.1, ::1 and the --host-name names), signed by a CA
                          made with it; the ready line gives the CA certificate's file (caFile)
  --ca-file <file>        where --tls writes the CA certificate (default: a new temporary folder,
                          removed when the mock stops)
  --cert <file> --key <file>  HTTPS with your own certificate chain and key (PEM) instead
  --items <n>             seeded content items (default 250)
  --users <n>             seeded users (default 50)
  --seed <n>              seed of the generated data (default 1)
  --rate <n/period>       requests per window per client, e.g. 200/1m; 0 = no limit (default: the profile's, 200/1m)
  --token-ttl <period>    access token lifetime, e.g. 60d, 1h (default: the profile's, 60d)
  --snapshot-ttl <period> snapshot lifetime without a next request (default 2m)
  --token-throttle <n/period>  failed token requests allowed per client_id, e.g. 10/1m; 0 = no throttling (default 10/1m)
  --clients <file>        JSON array of clients {id, secret, scopes, provider?, rate?, tokenTtl?}
  --no-control            no /_mock control plane
  --log                   one line per request and one per client finding on stderr (never tokens,
                          secrets or cursors); findings: GET /_mock/findings
  --help                  this text

Flags override the profile where both speak (--rate, --token-ttl). Once listening, prints one JSON line:
{"authUrl","baseUrl","controlUrl","profile"}, and "caFile" with --tls (null with --cert), "address"
(host:port the names must lead to) with --host-name.`;

/** More seeded rows than this would only exhaust memory of the fragment caches, not test anything. */
const MAX_ROWS = 10_000_000;
const PERIOD_HINT = 'a period like 30s, 2m, 12h or 60d';

/** Reads a whole number from `min` to `max` (said as `an integer from min to max` when it is not one). */
function integer(min: number, max: number): [(text: string) => number | undefined, string] {
  return [(text) => (/^\d{1,10}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined), `an integer from ${min} to ${max}`];
}

/** The flags read as one value each: the option they set, how they are read, and what they must be. */
const VALUE_FLAGS = [
  ['auth-port', 'authPort', ...integer(0, 65_535)],
  ['api-port', 'apiPort', ...integer(0, 65_535)],
  ['port', 'port', ...integer(0, 65_535)],
  ['items', 'items', ...integer(0, MAX_ROWS)],
  ['users', 'users', ...integer(0, MAX_ROWS)],
  ['seed', 'seed', ...integer(0, 4_294_967_295)],
  ['rate', 'rate', parseRate, 'requests/period like 200/1m (period in s, m, h or d), or 0 for no limit'],
  ['token-throttle', 'tokenThrottle', parseRate, 'failures/period like 10/1m, or 0 for no throttling'],
  ['token-ttl', 'tokenTtlSeconds', parsePeriod, PERIOD_HINT],
  ['snapshot-ttl', 'snapshotTtlSeconds', parsePeriod, PERIOD_HINT],
] as const satisfies ReadonlyArray<readonly [string, keyof MockOptions, (text: string) => unknown, string]>;

/** Every flag of USAGE: the value flags above, the others that take a value, and the switches. */
const STRING_FLAGS = [...VALUE_FLAGS.map(([flag]) => flag), 'profile', 'host', 'host-name', 'api-host-name', 'ca-file', 'cert', 'key', 'clients'];
const MOCK_FLAGS: Flags = Object.fromEntries([
  ...STRING_FLAGS.map((flag) => [flag, { type: 'string' }] as const),
  ...['tls', 'no-control', 'log', 'help'].map((flag) => [flag, { type: 'boolean' }] as const),
]);

/** parseArgs's errors, told as one sentence each. */
function sentence(error: NodeJS.ErrnoException): string {
  // The flag the error names (`'--port'` in "Unknown option '--port'").
  const flag = /'([^' ]+)/.exec(error.message)?.[1] ?? '?';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return flag === '-h' ? 'Use --help for the list of flags.' : `Unknown flag "${flag}"; run with --help for the list of flags.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument "${flag}": every option is a flag starting with --.`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return `${flag} takes no value.`;
      if (/ambiguous/.test(error.message)) return `${flag} needs a value (one that starts with a dash is written ${flag}=-…).`;
      return `${flag} needs a value.`;
    default:
      return `${error.message.split('\n')[0]}.`;
  }
}

export function parseFlags(argv: readonly string[], extra: Flags = {}): Result<CliOptions> {
  const options: Flags = { ...MOCK_FLAGS, ...extra };
  let parsed: ReturnType<typeof parseArgs<{ options: Flags; tokens: true; strict: true; allowPositionals: false }>>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    return fail(sentence(error as NodeJS.ErrnoException));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name) && options[token.name]?.multiple !== true) return fail(`--${token.name} is given more than once.`);
    seen.add(token.name);
    if (token.value === '') return fail(`--${token.name} needs a value, got an empty one.`);
  }
  const v = parsed.values as Record<string, string | boolean | Array<string | boolean> | undefined>;
  const text = (name: string) => v[name] as string | undefined;
  const mock: MockOptions = {};
  if (text('host') !== undefined) mock.host = text('host');
  for (const [flag, key, parse, form] of VALUE_FLAGS) {
    const value = text(flag);
    if (value === undefined) continue;
    const read = parse(value);
    if (read === undefined) return fail(`--${flag} must be ${form}, got "${value}".`);
    Object.assign(mock, { [key]: read });
  }
  if (v['no-control'] === true) mock.control = false;
  const names = hostNamesOf(text('host-name'), text('api-host-name'), mock);
  if (!names.ok) return names;
  if (names.value !== undefined) mock.hostNames = names.value;
  const tls = tlsOf(v.tls === true, text('ca-file'), text('cert'), text('key'));
  if (!tls.ok) return tls;
  const extraValues: CliOptions['extra'] = Object.fromEntries(Object.keys(extra).map((name) => [name, v[name]]));
  return ok({ mock, clientsFile: text('clients'), profile: text('profile'), log: v.log === true, tls: tls.value, help: v.help === true, extra: extraValues });
}

/** `--host-name` and `--api-host-name`, checked with the ports they exclude or need. */
function hostNamesOf(name: string | undefined, apiName: string | undefined, mock: MockOptions): Result<MockOptions['hostNames']> {
  if (name === undefined) {
    if (apiName !== undefined) return fail('--api-host-name names the api origin of --host-name: give --host-name too.');
    if (mock.port !== undefined) return fail('--port is the one port of --host-name; with two ports give --auth-port and --api-port.');
    return ok(undefined);
  }
  if (mock.authPort !== undefined || mock.apiPort !== undefined)
    return fail('--host-name serves both origins on one port: give --port instead of --auth-port and --api-port.');
  try {
    return ok(checkHostNames({ auth: name, api: apiName ?? `api.${name.toLowerCase()}` }, { auth: '--host-name', api: '--api-host-name' }));
  } catch (error) {
    return fail((error as Error).message);
  }
}

function tlsOf(made: boolean, caFile: string | undefined, cert: string | undefined, key: string | undefined): Result<CliOptions['tls']> {
  if ((cert === undefined) !== (key === undefined)) return fail('--cert and --key go together: the certificate chain and its private key.');
  if (cert !== undefined && caFile !== undefined) return fail('--ca-file is where --tls writes the CA it makes; with --cert the CA is yours.');
  if (cert !== undefined && key !== undefined) return ok({ kind: 'files', cert, key });
  if (caFile !== undefined && !made) return fail('--ca-file is where --tls writes the CA it makes: give --tls too.');
  return ok(made ? { kind: 'made', caFile } : { kind: 'none' });
}
