/** The CLI's flags (mock/options.ts, node:util.parseArgs): what each flag sets, and one clear sentence for each bad one. */
import { expect, test } from '@playwright/test';
import { parseFlags } from '../options.ts';

test.describe('flags that parse', () => {
  for (const { argv, expected } of [
    { argv: [], expected: { mock: {}, clientsFile: undefined, profile: undefined, log: false, tls: { kind: 'none' }, help: false } },
    { argv: ['--profile', 'lenient'], expected: { mock: {}, profile: 'lenient' } },
    {
      argv: ['--auth-port', '4010', '--api-port=4011', '--host', '127.0.0.1', '--items', '250', '--users', '0', '--seed', '7'],
      expected: { mock: { authPort: 4010, apiPort: 4011, host: '127.0.0.1', items: 250, users: 0, seed: 7 } },
    },
    { argv: ['--rate', '200/1m'], expected: { mock: { rate: { requests: 200, periodSeconds: 60, period: '1m' } } } },
    { argv: ['--rate', '0'], expected: { mock: { rate: null } } },
    { argv: ['--token-throttle', '5/30s'], expected: { mock: { tokenThrottle: { requests: 5, periodSeconds: 30, period: '30s' } } } },
    { argv: ['--token-throttle', '0'], expected: { mock: { tokenThrottle: null } } },
    { argv: ['--token-ttl', '60d', '--snapshot-ttl', '2m'], expected: { mock: { tokenTtlSeconds: 5_184_000, snapshotTtlSeconds: 120 } } },
    { argv: ['--clients', 'keys.json', '--no-control', '--log'], expected: { mock: { control: false }, clientsFile: 'keys.json', log: true } },
    { argv: ['--help'], expected: { help: true } },
    { argv: ['--tls'], expected: { mock: {}, tls: { kind: 'made', caFile: undefined } } },
    { argv: ['--tls', '--ca-file', 'ca.pem'], expected: { tls: { kind: 'made', caFile: 'ca.pem' } } },
    { argv: ['--cert', 'c.pem', '--key', 'k.pem'], expected: { tls: { kind: 'files', cert: 'c.pem', key: 'k.pem' } } },
    { argv: ['--host-name', 'Mock.Test', '--port', '4443'], expected: { mock: { hostNames: { auth: 'mock.test', api: 'api.mock.test' }, port: 4443 } } },
    {
      argv: ['--host-name', 'auth.mock.test', '--api-host-name', 'mock.test'],
      expected: { mock: { hostNames: { auth: 'auth.mock.test', api: 'mock.test' } } },
    },
  ]) {
    test(`${argv.join(' ') || '(none)'}`, () => {
      const parsed = parseFlags(argv);
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (parsed.ok) expect(parsed.value).toMatchObject(expected);
    });
  }
});

test('extra flags of a CLI built on it (mock/faults/cli.ts) come back by name', () => {
  const parsed = parseFlags(['--fault', 'a', '--fault', 'b', '--log'], { fault: { type: 'string', multiple: true } });
  expect(parsed).toMatchObject({ ok: true, value: { log: true, extra: { fault: ['a', 'b'] } } });
});

test.describe('bad flags give one sentence naming the flag', () => {
  for (const { argv, message } of [
    { argv: ['--listen', '1'], message: /^Unknown flag "--listen"/ },
    { argv: ['--port', '1'], message: /^--port is the one port of --host-name; with two ports give --auth-port and --api-port\.$/ },
    { argv: ['--host-name', 'mock.test', '--auth-port', '1'], message: /^--host-name serves both origins on one port: give --port instead/ },
    { argv: ['--api-host-name', 'api.mock.test'], message: /^--api-host-name names the api origin of --host-name: give --host-name too\.$/ },
    { argv: ['--host-name', 'mock_test'], message: /^--host-name must be a host name .* got "mock_test"\.$/ },
    { argv: ['--host-name', 'https://mock.test'], message: /^--host-name must be a host name/ },
    { argv: ['--host-name', 'mock.test', '--api-host-name', 'MOCK.test'], message: /^--host-name and --api-host-name must differ: both are "mock.test"\.$/ },
    { argv: ['--cert', 'c.pem'], message: /^--cert and --key go together/ },
    { argv: ['--ca-file', 'ca.pem'], message: /^--ca-file is where --tls writes the CA it makes: give --tls too\.$/ },
    {
      argv: ['--tls', '--ca-file', 'ca.pem', '--cert', 'c', '--key', 'k'],
      message: /^--ca-file is where --tls writes the CA it makes; with --cert the CA is yours\.$/,
    },
    { argv: ['4010'], message: /^Unexpected argument "4010"/ },
    { argv: ['--auth-port'], message: /^--auth-port needs a value\.$/ },
    { argv: ['--auth-port', '--log'], message: /^--auth-port needs a value \(one that starts with a dash is written --auth-port=-…\)\.$/ },
    { argv: ['--auth-port', '70000'], message: /^--auth-port must be an integer from 0 to 65535, got "70000"\.$/ },
    { argv: ['--api-port', 'http'], message: /^--api-port must be an integer/ },
    { argv: ['--items=-1'], message: /^--items must be an integer/ },
    { argv: ['--seed', '1.5'], message: /^--seed must be an integer/ },
    { argv: ['--rate', '200'], message: /^--rate must be requests\/period like 200\/1m .* got "200"\.$/ },
    { argv: ['--rate', '200/1w'], message: /^--rate must be/ },
    { argv: ['--token-throttle', '10'], message: /^--token-throttle must be failures\/period like 10\/1m, or 0 for no throttling, got "10"\.$/ },
    { argv: ['--token-ttl', '60'], message: /^--token-ttl must be a period like .* got "60"\.$/ },
    { argv: ['--snapshot-ttl', '0m'], message: /^--snapshot-ttl must be a period/ },
    { argv: ['--fault', 'nope'], message: /^Unknown flag "--fault"/ },
    { argv: ['--seed', '1', '--seed', '2'], message: /^--seed is given more than once\.$/ },
    { argv: ['--log=yes'], message: /^--log takes no value/ },
    { argv: ['--host='], message: /^--host needs a value, got an empty one\.$/ },
  ]) {
    test(`${argv.join(' ')}`, () => {
      const parsed = parseFlags(argv);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toMatch(message);
        // One sentence: one line, one full stop at the end.
        expect(parsed.error).not.toContain('\n');
        expect(parsed.error).toMatch(/\.$/);
      }
    });
  }
});
