/**
 * `npm run mock -- [flags]`: starts the mock, prints one JSON line {"authUrl","baseUrl","controlUrl"}
 * on stdout once both origins listen, and stops cleanly on SIGINT or SIGTERM. A bad flag: one
 * sentence on stderr and exit code 2. Anything else that stops it from starting: exit code 1.
 */
import { createMock, type MockServer } from './app.ts';
import { type ClientConfig, loadClientsFile } from './clients.ts';
import { parseFlags, USAGE } from './options.ts';

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const parsed = parseFlags(process.argv.slice(2));
  if (!parsed.ok) fail(parsed.message, 2);
  const { mock: options, clientsFile, log, help } = parsed.value;
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  let clients: ClientConfig[] | undefined;
  if (clientsFile !== undefined) {
    try {
      clients = loadClientsFile(clientsFile);
    } catch (error) {
      fail((error as Error).message, 2);
    }
  }

  let mock: MockServer;
  try {
    mock = createMock({
      ...options,
      ...(clients ? { clients } : {}),
      // The CLI is where wall time enters the mock; everything inside asks the virtual clock.
      timeSource: Date.now,
      ...(log ? { log: (line: string) => process.stderr.write(`${line}\n`) } : {}),
    });
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

  process.stdout.write(`${JSON.stringify({ authUrl: mock.authUrl, baseUrl: mock.baseUrl, controlUrl: mock.controlUrl ?? null })}\n`);
}

main().catch((error: unknown) => fail(`The mock stopped: ${(error as Error).message}`, 1));
