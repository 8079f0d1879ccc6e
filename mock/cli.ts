/**
 * `npm run mock -- [flags]`: starts the mock, prints one JSON line
 * {"authUrl","baseUrl","controlUrl","profile"} on stdout once both origins listen, and stops cleanly on
 * SIGINT or SIGTERM. A bad flag, clients file or profile: one sentence on stderr and exit code 2.
 * Anything else that stops it from starting: exit code 1. Another CLI may run this one with flags of
 * its own and its own factory (runMockCli).
 */
import type { ParseArgsConfig } from 'node:util';
import { createMock, type MockOptions, type MockServer } from './app.ts';
import { type ClientConfig, loadClientsFile } from './clients.ts';
import { type CliOptions, parseFlags, USAGE } from './options.ts';
import { loadProfile } from './profile.ts';

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

export async function runMockCli(argv: readonly string[], extension: CliExtension = {}): Promise<void> {
  const parsed = parseFlags(argv, extension.extraFlags);
  if (!parsed.ok) fail(parsed.error, 2);
  const { mock: options, clientsFile, profile: profileName, log, help, extra } = parsed.value;
  if (help) {
    const usage = extension.command === undefined ? USAGE : USAGE.replace('npm run mock --', extension.command);
    process.stdout.write(`${usage}${extension.usage ? `\n\n${extension.usage}` : ''}\n`);
    return;
  }

  let clients: ClientConfig[] | undefined;
  let profile: MockOptions['profile'];
  try {
    if (clientsFile !== undefined) clients = loadClientsFile(clientsFile);
    if (profileName !== undefined) profile = loadProfile(profileName);
  } catch (error) {
    fail((error as Error).message, 2);
  }

  const full: MockOptions = {
    ...options,
    ...(clients ? { clients } : {}),
    ...(profile ? { profile } : {}),
    // The CLI is where wall time enters the mock; everything inside asks the virtual clock.
    timeSource: Date.now,
    ...(log ? { log: (line: string) => process.stderr.write(`${line}\n`) } : {}),
  };
  let mock: MockServer;
  try {
    mock = (extension.create ?? createMock)(full, extra);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  try {
    await mock.listen();
  } catch (error) {
    fail((error as Error).message, 1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal while closing: the user wants out now.
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    mock.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`Closing the mock failed: ${(error as Error).message}`, 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const line = { authUrl: mock.authUrl, baseUrl: mock.baseUrl, controlUrl: mock.controlUrl ?? null, profile: mock.profile.name };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

if (require.main === module) {
  // The package's bundle (mock/build.ts) defines LP_MOCK_COMMAND as `lp-mock`: its usage names the command its users run.
  const command = process.env.LP_MOCK_COMMAND;
  runMockCli(process.argv.slice(2), command === undefined ? {} : { command }).catch((error: unknown) =>
    fail(`The mock stopped: ${(error as Error).message}`, 1),
  );
}
