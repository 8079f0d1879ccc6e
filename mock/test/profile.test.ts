/** Behaviour profiles (mock/profile.ts): the built-ins are complete, each option names its rule, files extend them, a bad file gets one sentence naming the key. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { isRuleId } from '../../contracts/rules/index.ts';
import { BUILT_IN_PROFILES, loadProfile, PROFILE_GROUPS, PROFILE_NAMES, PROFILE_OPTIONS, resolveProfile, ruleOfOption } from '../profile.ts';
import type { ProfileFile } from '../profile.ts';

test.describe('the built-in profiles', () => {
  for (const name of PROFILE_NAMES) {
    test(`mock/profiles/${name}.json sets every option of the schema itself`, () => {
      const file = JSON.parse(readFileSync(path.join(__dirname, '..', 'profiles', `${name}.json`), 'utf8')) as Record<string, Record<string, unknown>>;
      const missing = PROFILE_GROUPS.flatMap((group) =>
        PROFILE_OPTIONS[group].filter((option) => file[group]?.[option] === undefined).map((o) => `${group}.${o}`),
      );
      expect(missing).toEqual([]);
      expect(file.extends).toBeUndefined();
      expect(BUILT_IN_PROFILES[name].name).toBe(name);
      expect(loadProfile(name)).toBe(BUILT_IN_PROFILES[name]);
    });
  }

  test('are frozen: no caller can change what another one reads', () => {
    expect(Object.isFrozen(BUILT_IN_PROFILES.strict.pagination)).toBe(true);
  });
});

test('every option names the rule whose open point it is (x-rule): one vocabulary for a choice and its rule', () => {
  const unnamed = PROFILE_GROUPS.flatMap((group) => PROFILE_OPTIONS[group].map((o) => `${group}.${o}`)).filter((key) => !isRuleId(String(ruleOfOption(key))));
  expect(unnamed).toEqual([]);
});

test.describe('resolveProfile', () => {
  test('merges a file over strict by default, option by option', () => {
    const resolved = resolveProfile({ pagination: { finalPage: 'null' } });
    expect(resolved.ok && resolved.value).toMatchObject({
      name: 'strict-custom',
      pagination: { ...BUILT_IN_PROFILES.strict.pagination, finalPage: 'null' },
      tokens: BUILT_IN_PROFILES.strict.tokens,
    });
  });

  test('merges over the profile named in extends, drops extends, $schema and observed', () => {
    const resolved = resolveProfile({ $schema: 'x', name: 'betatest', extends: 'platform', observed: { target: 'x' }, errors: { body: 'text' } });
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value).toEqual({ ...BUILT_IN_PROFILES.platform, name: 'betatest', description: expect.any(String), errors: { body: 'text' } });
    expect(Object.keys(resolved.value)).not.toContain('extends');
    expect(Object.keys(resolved.value)).not.toContain('observed');
  });

  test('a file that only names a built-in is that built-in', () => {
    expect(resolveProfile({ extends: 'lenient' })).toEqual({ ok: true, value: BUILT_IN_PROFILES.lenient });
  });

  const refused: Array<{ file: unknown; error: string }> = [
    {
      file: { pagination: { finalPage: 'last' } },
      error: 'pagination.finalPage must be one of "absent", "null", "empty-string", "trailing-empty-page", got "last".',
    },
    { file: { tokens: { foo: true } }, error: 'tokens.foo is not an option of a profile (see schemas/profile.schema.json).' },
    { file: { colour: 'red' }, error: 'colour is not an option of a profile (see schemas/profile.schema.json).' },
    { file: { query: { limitDefault: 0 } }, error: 'query.limitDefault must be an integer from 1 to 10000, got 0.' },
    { file: { query: { limitDefault: 2000 } }, error: 'query.limitDefault must not be above query.limitMax (1000), got 2000.' },
    { file: { tokens: { acceptJsonBody: 'yes' } }, error: 'tokens.acceptJsonBody must be true or false, got "yes".' },
    {
      file: { rateLimit: { rate: '200 per minute' } },
      error: 'rateLimit.rate must be requests per period like "200/1m" (period in s, m, h or d), got "200 per minute".',
    },
    {
      file: { auth: { contentScopes: ['content:write'] } },
      error: 'auth.contentScopes must be a list of distinct scopes from "content:read", "content:write" holding "content:read", got ["content:write"].',
    },
    { file: { tokens: 3 }, error: 'tokens must be an object of options, got 3.' },
    { file: [], error: 'a profile must be a JSON object, got an array.' },
    { file: { extends: 'betatest' }, error: 'extends must be one of "strict", "platform", "lenient", got "betatest".' },
    {
      file: { pagination: { nextLink: 'cursor-only' } },
      error:
        'pagination.nextWithoutQuery must be "accept" when pagination.nextLink is "cursor-only" (a links.next that carries only next must be served), got nothing.',
    },
    {
      file: { extends: 'lenient', pagination: { nextWithoutQuery: 'refuse' } },
      error:
        'pagination.nextWithoutQuery must be "accept" when pagination.nextLink is "cursor-only" (a links.next that carries only next must be served), got "refuse".',
    },
  ];
  for (const { file, error } of refused) {
    test(`refuses ${JSON.stringify(file)} with one sentence naming the key`, () => {
      expect(resolveProfile(file as ProfileFile)).toEqual({ ok: false, error });
    });
  }
});

test.describe('loadProfile', () => {
  let dir: string;
  test.beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lp-profile-'));
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('reads a JSON file; its name defaults to the file name', () => {
    const file = path.join(dir, 'betatest.json');
    writeFileSync(file, JSON.stringify({ extends: 'platform', tokens: { reuse: 'live-token' } }));
    const profile = loadProfile(file);
    expect(profile.name).toBe('betatest');
    expect(profile.tokens.reuse).toBe('live-token');
    expect(profile.pagination).toEqual(BUILT_IN_PROFILES.platform.pagination);
  });

  test('a bad file throws one sentence naming the file and the key', () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ pagination: { finalPage: 'last' } }));
    expect(() => loadProfile(file)).toThrow(
      `Profile file ${file}: pagination.finalPage must be one of "absent", "null", "empty-string", "trailing-empty-page", got "last".`,
    );
    writeFileSync(file, '{ nope');
    expect(() => loadProfile(file)).toThrow(`Profile file ${file} is not valid JSON.`);
  });

  test('neither a built-in nor a file', () => {
    expect(() => loadProfile('betatest')).toThrow(
      'Profile "betatest" is neither a built-in profile (strict, platform, lenient) nor a readable file (no such file).',
    );
  });
});
