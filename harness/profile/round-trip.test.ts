/**
 * The prober's acceptance test: for each built-in profile, `npm run profile` against the mock's CLI
 * started with that profile and no control plane finds the profile again, option by option. The
 * options it cannot decide there are listed below, each with the reason; every other option must come
 * back exactly as the built-in has it.
 *
 * The mock runs with a short window (RATE) and a short snapshot lifetime, and the prober is told both
 * (LP_RATE, LP_SNAPSHOT_LIFETIME), so the timed probes and the 429 probe (LP_QUOTA=1) take seconds.
 * The three run at once: each mostly waits. 1,100 items: more than the largest limit, so a clamped
 * limit shows the maximum.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEFAULT_CLIENTS } from '../../mock/app.ts';
import { BUILT_IN_PROFILES, PROFILE_NAMES, type ProfileName } from '../../mock/profile.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import { startMockProcess } from '../../mock/test/mock-process.ts';
import type { ChildRun } from '../self-check/child-run.ts';
import { runProfile } from './cli-run.ts';
import { ALL_OPTIONS } from './session.ts';

// A budget a loaded machine spends well within one window (the 429 probe must meet its 429 before the window ends).
const RATE = '60/4s';
const SNAPSHOT_LIFETIME = '2s';

/**
 * What the prober cannot decide against each built-in, and why. A limit on token requests shows only under a burst
 * of them, which the prober does not send. Trailing zeros dropped from timestamps
 * the mock keeps to the millisecond: 7 digits written look like 3 (or 4, 5, 6), so fractionDigits is
 * only known where zeros are kept, or where 7 digits show.
 */
const UNDECIDABLE: Readonly<Record<ProfileName, readonly string[]>> = {
  strict: ['tokens.requestLimit'],
  platform: ['tokens.requestLimit', 'timestamps.fractionDigits'],
  lenient: ['tokens.requestLimit', 'timestamps.fractionDigits'],
};

const org = DEFAULT_CLIENTS.find((c) => c.provider === undefined)!;

/** The built-in as the mock runs it here: --rate overrides the profile's rate. */
function expected(name: ProfileName): ProfileFile {
  const builtIn = BUILT_IN_PROFILES[name];
  return { ...builtIn, rateLimit: { ...builtIn.rateLimit, rate: RATE } } as ProfileFile;
}

async function roundTrip(name: ProfileName, dir: string): Promise<{ run: ChildRun; observed: ProfileFile; evidence: string }> {
  const mock = await startMockProcess(['--profile', name, '--no-control', '--rate', RATE, '--snapshot-ttl', SNAPSHOT_LIFETIME, '--items', '1100']);
  try {
    const saved = path.join(dir, `${name}-expected.json`);
    writeFileSync(saved, JSON.stringify(expected(name)));
    const out = path.join(dir, `${name}.json`);
    const run = await runProfile(['--out', out, '--compare', saved], {
      LP_TARGET: 'remote',
      LP_AUTH_URL: mock.authUrl,
      LP_BASE_URL: mock.baseUrl,
      LP_CLIENT_ID: org.id,
      LP_CLIENT_SECRET: org.secret,
      LP_SCOPES: org.scopes.join(','),
      LP_TOKEN_LIFETIME: '60d',
      LP_RATE: RATE,
      LP_QUOTA: '1',
      LP_SNAPSHOT_LIFETIME: SNAPSHOT_LIFETIME,
    });
    const observed = JSON.parse(readFileSync(out, 'utf8')) as ProfileFile;
    return { run, observed, evidence: readFileSync(path.join(dir, `${name}-evidence.json`), 'utf8') };
  } finally {
    await mock.stop();
  }
}

test('npm run profile finds each built-in profile again from the API alone', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-profile-'));
  const runs = await Promise.all(PROFILE_NAMES.map(async (name) => [name, await roundTrip(name, dir)] as const));
  for (const [name, { run, observed, evidence }] of runs) {
    // --compare with the built-in: no drift on any option decided.
    expect(run.code, `${name}: ${run.log}`).toBe(0);
    expect(run.log, name).toContain('compare: no drift');
    expect(observed.observed?.unknown, `${name}: options left unknown`).toEqual(UNDECIDABLE[name]);
    const want = expected(name) as unknown as Record<string, Record<string, unknown>>;
    const got = observed as unknown as Record<string, Record<string, unknown> | undefined>;
    for (const option of ALL_OPTIONS) {
      const [group, key] = option.split('.') as [string, string];
      if (UNDECIDABLE[name].includes(option)) expect(got[group]?.[key], `${name} ${option}`).toBeUndefined();
      else expect(got[group]?.[key], `${name} ${option}`).toEqual(want[group]?.[key]);
    }
    // The evidence names the rule beside each option, as the drift report does.
    const options = (JSON.parse(evidence) as { options: Record<string, { rule?: string }> }).options;
    expect(options['logout.response']?.rule, name).toBe('platform.logout-response');
    // Nothing secret in what it wrote: not the key's secret, no token (the mock's are 43 base64url characters).
    for (const text of [evidence, JSON.stringify(observed), run.log]) {
      expect(text).not.toContain(org.secret);
      expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
    }
    expect(run.log, `${name}: every token issued is logged out`).toMatch(/tokens: (\d+) issued, \1 logged out/);
  }
});
