/**
 * `npm run mock -- [flags]`: starts the mock, prints the JSON line of USAGE (mock/options.ts) once both origins listen, stops cleanly on SIGINT or SIGTERM. A
 * bad flag, clients file or profile: one sentence on stderr, exit 2; any other failure to start: 1. runMockCli lets other CLIs add flags and a factory.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { createMock, type MockOptions, type MockServer } from './app.ts';
import { loadClientsFile } from './clients.ts';
import { type CliOptions, parseFlags, USAGE } from './options.ts';
import { loadProfile } from './profile.ts';
import type { TlsFiles } from './server.ts';

export interface CliExtension {
  /** How the user runs this CLI, for the usage text (default `npm run mock --`; the installed package is `lp-mock`). */
  readonly command?: string;
  /** Flags beyond the mock's own. */
  readonly extraFlags?: NonNullable<ParseArgsConfig['options']>;
  /** Lines added to the usage text. */
  readonly usage?: string;
  /** Builds the mock from the options the flags give (default: createMock); throws an Error with one sentence for a bad `extra` value. */
  readonly create?: (options: MockOptions, extra: CliOptions['extra']) => MockServer;
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** What the made certificate names: the names served, the interface, and loopback by every name it has. */
function certificateNames(options: MockOptions): string[] {
  const host = options.host ?? '127.0.0.1';
  const names = [...(options.hostNames ? [options.hostNames.auth, options.hostNames.api] : []), 'localhost', '127.0.0.1', '::1'];
  // A wildcard interface is no name a client connects to.
  if (host !== '0.0.0.0' && host !== '::') names.push(host);
  return [...new Set(names)];
}

/** The certificate to serve, and the CA file to report (null: the user's own certificate). */
async function tlsFiles(
  tls: CliOptions['tls'],
  options: MockOptions,
  nowMs: number,
): Promise<{ files: TlsFiles; caFile: string | null; cleanup: () => void } | undefined> {
  if (tls.kind === 'none') return undefined;
  if (tls.kind === 'files') {
    const read = (flag: string, file: string) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        return fail(`--${flag} ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`, 2);
      }
    };
    return { files: { cert: read('cert', tls.cert), key: read('key', tls.key) }, caFile: null, cleanup: () => {} };
  }
  // Loaded only here: the mock without --tls starts without the certificate library.
  const { makeCertificate } = await import('./certificate.ts');
  const made = await makeCertificate(certificateNames(options), nowMs);
  const folder = tls.caFile === undefined ? mkdtempSync(path.join(tmpdir(), 'lp-mock-tls-')) : undefined;
  const caFile = tls.caFile === undefined ? path.join(folder as string, 'ca.pem') : path.resolve(tls.caFile);
  try {
    if (folder === undefined) mkdirSync(path.dirname(caFile), { recursive: true });
    writeFileSync(caFile, made.caCert);
  } catch (error) {
    fail(`--ca-file ${caFile}: ${(error as Error).message}.`, 2);
  }
  // A folder of its own goes with the mock; a file the user named stays.
  const cleanup = () => (folder === undefined ? undefined : rmSync(folder, { recursive: true, force: true }));
  return { files: { cert: made.cert, key: made.key }, caFile, cleanup };
}

/** Runs the CLI; what it did not foresee stops the mock with exit code 1. */
export function runMockCli(argv: readonly string[], extension: CliExtension = {}): void {
  startMock(argv, extension).catch((error: unknown) => fail(`The mock stopped: ${(error as Error).message}`, 1));
}

async function startMock(argv: readonly string[], extension: CliExtension): Promise<void> {
  const parsed = parseFlags(argv, extension.extraFlags);
  if (!parsed.ok) fail(parsed.error, 2);
  const { mock: options, clientsFile, profile: profileName, log, tls, help, extra } = parsed.value;
  if (help) {
    const usage = extension.command === undefined ? USAGE : USAGE.replace('npm run mock --', extension.command);
    process.stdout.write(`${usage}${extension.usage ? `\n\n${extension.usage}` : ''}\n`);
    return;
  }
  // The CLI is where wall time enters the mock; everything inside asks the virtual clock.
  const timeSource = Date.now;
  let full: MockOptions = { ...options, timeSource, ...(log ? { log: (line: string) => process.stderr.write(`${line}\n`) } : {}) };
  try {
    if (clientsFile !== undefined) full = { ...full, clients: loadClientsFile(clientsFile) };
    if (profileName !== undefined) full = { ...full, profile: loadProfile(profileName) };
  } catch (error) {
    fail((error as Error).message, 2);
  }
  let https: Awaited<ReturnType<typeof tlsFiles>>;
  try {
    https = await tlsFiles(tls, options, timeSource());
  } catch (error) {
    fail(`The certificate could not be made: ${(error as Error).message}`, 1);
  }
  if (https) full = { ...full, tls: https.files };
  const stopped: (message: string, code: number) => never = (message, code) => {
    https?.cleanup();
    return fail(message, code);
  };
  let mock: MockServer;
  try {
    mock = (extension.create ?? createMock)(full, extra);
  } catch (error) {
    stopped((error as Error).message, 2);
  }
  try {
    await mock.listen();
  } catch (error) {
    stopped((error as Error).message, 1);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while closing: the user wants out now.
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = true;
    mock.close().then(
      () => {
        https?.cleanup();
        process.exit(0);
      },
      (error: unknown) => stopped(`Closing the mock failed: ${(error as Error).message}`, 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const line = {
    authUrl: mock.authUrl,
    baseUrl: mock.baseUrl,
    controlUrl: mock.controlUrl ?? null,
    profile: mock.profile.name,
    ...(https ? { caFile: https.caFile } : {}),
    ...(options.hostNames ? { address: mock.address } : {}),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

if (require.main === module) {
  // The package's bundle (mock/build.ts) defines LP_MOCK_COMMAND as `lp-mock`: its usage names the command its users run.
  const command = process.env.LP_MOCK_COMMAND;
  runMockCli(process.argv.slice(2), command === undefined ? {} : { command });
}
