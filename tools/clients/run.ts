/**
 * `npm run clients`: the public degreedClient, unchanged (see docs/clients.md), against a mock of its own per profile, over HTTPS with the names the client
 * builds; degreed_client.py drives it trusting only the mock's CA, then the mock's client findings are printed. Python is needed here, not in CI.
 */
import { spawnSync } from 'node:child_process';
import { lookup as dnsLookup } from 'node:dns';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { parseCommandLine, runMain, usage } from '../../common/flags.ts';
import { findingLine } from '../../common/report.ts';
import type { FindingsReport } from '../../mock/client-findings.ts';
import { type MockProcess, withMockProcess } from '../../mock/test/mock-process.ts';
import { ROOT } from '../../common/root.ts';

const HARNESS = path.join(ROOT, 'tools', 'clients', 'degreed_client.py');
/** The host name the client is given: it builds https://mock.test and https://api.mock.test from it. */
const HOST_NAME = 'mock.test';
const RUN_TIMEOUT_MS = 120_000;
const USAGE = `Usage: npm run clients -- --client <folder> [flags]

  --client <folder>      a degreedClient checkout (required; docs/clients.md says where to get it)
  --python <command>     the Python that runs the client (default python3)
  --profile <name|file>  a mock profile to run it against, once per profile (default strict, platform, lenient)
  --help, -h             this text

Each profile gets a mock of its own; exits 1 when the client fails under any of them.`;

/** The client findings, one line each: reported, never a failure of the run (the harness's own calls are the client's). */
async function printFindings(mock: MockProcess): Promise<void> {
  if (mock.controlUrl === null) return;
  const res = await getOverTls(`${mock.controlUrl}/findings`, mock);
  if (res.status !== 200) return console.log(`client findings: not available (${res.status})`);
  const report = JSON.parse(res.text) as FindingsReport;
  const counted = Object.entries(report.counts).filter(([, n]) => n > 0);
  console.log(`client findings: ${report.total}${counted.length > 0 ? ` (${counted.map(([rule, n]) => `${rule} ${n}`).join(', ')})` : ''}`);
  for (const f of report.findings.slice(0, 20)) console.log(`  ${f.clientId}: ${findingLine(f)}`);
}

/** A GET to the mock as the client reaches it: its CA trusted, its names resolved to its address. */
function getOverTls(url: string, mock: MockProcess): Promise<{ status: number; text: string }> {
  const address = (mock.address ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  const ca = mock.caFile ? readFileSync(mock.caFile, 'utf8') : undefined;
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, lookup: (_host, options, callback) => dnsLookup(address, options, callback), agent: false, timeout: 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<number> {
  const options = { client: { type: 'string' }, python: { type: 'string', default: 'python3' }, profile: { type: 'string', multiple: true } } as const;
  const { values } = (() => {
    try {
      return parseCommandLine('clients', USAGE, { args: process.argv.slice(2), options, strict: true });
    } catch (error) {
      return usage((error as Error).message);
    }
  })();
  const client = path.resolve(values.client ?? usage('--client <folder of a degreedClient checkout> is required.'));
  const profiles = values.profile ?? ['strict', 'platform', 'lenient'];
  let failed = 0;
  for (const profile of profiles) {
    const status = await withMockProcess(['--items', '250', '--seed', '1', '--profile', profile, '--tls', '--host-name', HOST_NAME], [], async (mock) => {
      const { caFile, address } = mock;
      if (!caFile || address === undefined) throw new Error('The mock started without TLS or host names: its ready line has no caFile or address.');
      const harness = [HARNESS, '--client', client, '--auth-url', mock.authUrl, '--base-url', mock.baseUrl, '--address', address];
      // The only trust the client gets: the mock's CA, where requests looks for one.
      const run = spawnSync(values.python, harness, { encoding: 'utf8', timeout: RUN_TIMEOUT_MS, env: { ...process.env, REQUESTS_CA_BUNDLE: caFile } });
      console.log(`== profile ${profile}`);
      process.stdout.write(run.stdout ?? '');
      if (run.error) console.error(`The harness did not run: ${run.error.message}`);
      else if (run.stderr) process.stderr.write(run.stderr);
      await printFindings(mock);
      return run.status ?? 1;
    });
    if (status !== 0) failed += 1;
  }
  console.log(`profiles: ${profiles.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

runMain(main, '');
