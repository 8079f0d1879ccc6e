/**
 * One observation of a target: the probe groups in their order, then the profile file and the
 * evidence built from what they recorded. The order matters for the budget: the timed probes want a
 * silent key, so they come first; the 429 probe spends what is left of a window, so it comes last,
 * after every token but the one it reads with is logged out.
 */
import type { APIRequestContext } from '@playwright/test';
import { BUILT_IN_PROFILES, describeProfileError, PROFILE_GROUPS, PROFILE_NAMES, PROFILE_OPTIONS, type ProfileName } from '../../mock/profile.ts';
import { validateProfile } from '../../schemas/index.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import { redact } from '../client/redact.ts';
import type { Target } from '../target/target.ts';
import { decideErrorBody, probeAuth } from './auth.ts';
import { sameValue } from './compare.ts';
import { probeLogout } from './logout.ts';
import { probePagination } from './pagination.ts';
import { probeQuery } from './query.ts';
import { decideRateFromSettings, probeCountsTokenRequests, probeQuota } from './rate-limit.ts';
import { type OptionKey, type OptionRecord, Probe, type ProbeSettings } from './session.ts';
import { decideResetDigits, probeTimed } from './timed.ts';
import { decideTimestamps } from './timestamps.ts';
import { mainToken, probeTokens } from './tokens.ts';
import { probeUsers } from './users.ts';
import type { ApiResponse } from '../client/transport.ts';
import { logOutEach, type TokenCleanup } from '../target/session.ts';

export interface Observation {
  /** The profile observed: valid against schemas/profile.schema.json; undecided options are left to `extends`. */
  readonly profile: ProfileFile;
  /** Per option: the value with its basis and exchanges, or "unknown" with the reason. */
  readonly evidence: Record<string, unknown>;
  /** Options no probe could decide, with the reason. */
  readonly unknown: ReadonlyArray<{ readonly option: OptionKey; readonly reason: string }>;
  readonly requests: number;
  readonly tokens: TokenCleanup;
}

/** Every option of a profile, `group.option`, in the schema's order. */
export const ALL_OPTIONS: readonly OptionKey[] = PROFILE_GROUPS.flatMap((group) => PROFILE_OPTIONS[group].map((option) => `${group}.${option}` as OptionKey));

export async function observe(context: APIRequestContext, target: Target, settings: ProbeSettings): Promise<Observation> {
  const p = new Probe(context, target, settings);
  const main = await mainToken(p);
  const token = main.accessToken;
  const stopped: string[] = [];
  let unauthenticated: ApiResponse | undefined;
  const steps: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
    ['timing', () => probeTimed(p, token)],
    ['tokens', () => probeTokens(p, main)],
    ['auth', async () => (unauthenticated = await probeAuth(p))],
    ['query', () => probeQuery(p, token)],
    ['pagination', () => probePagination(p, token)],
    ['users', () => probeUsers(p)],
    ['logout', () => probeLogout(p)],
    ['rate limit', () => probeCountsTokenRequests(p, token)],
  ];
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      // One group stopping (the budget spent, an answer it could not read) leaves its options unknown, not the run.
      stopped.push(redact(`the ${name} probes stopped: ${(error as Error).message}`));
    }
  }
  if (unauthenticated !== undefined) decideErrorBody(p, unauthenticated);
  decideTimestamps(p);
  decideResetDigits(p);
  decideRateFromSettings(p);
  if (p.value('pagination.nextLink') === 'cursor-only' && !p.decided('pagination.nextWithoutQuery')) {
    // The schema's one rule across options: a links.next that carries only next is served without the query.
    p.decide('pagination.nextWithoutQuery', 'accept', 'implied: links.next carries only next, and links.next is the address of the next page');
  }

  const loggedOutBefore = await logOut(p, (t) => t !== token);
  const beforeQuota = p.counter.sent;
  try {
    await probeQuota(p, token);
  } catch (error) {
    stopped.push(redact(`the 429 probe stopped: ${(error as Error).message}`));
  }
  const loggedOutAfter = await logOut(p, () => true);
  const sum = (key: keyof TokenCleanup) => loggedOutBefore[key] + loggedOutAfter[key];
  const tokens: TokenCleanup = { issued: sum('issued'), loggedOut: sum('loggedOut'), alreadyEnded: sum('alreadyEnded'), failed: sum('failed') };
  for (const option of ALL_OPTIONS) {
    if (!p.records.has(option)) p.unknown(option, stopped.length > 0 ? `no probe decided it; ${stopped.join('; ')}` : 'no probe decided it');
  }
  return build(p, tokens, { beforeQuota, inQuota: p.counter.sent - beforeQuota - loggedOutAfter.issued });
}

/** Logs out the tokens of the ledger `which` picks, their refresh tokens with them; the budget never stops a logout. */
async function logOut(p: Probe, which: (token: string) => boolean): Promise<TokenCleanup> {
  const picked = [...p.ledger].filter(([token]) => which(token));
  p.counter.cap = Math.max(p.counter.cap, p.counter.sent + picked.length);
  return logOutEach(picked, async ([token, held]) => {
    p.ledger.delete(token);
    return p.noteRated(await p.api.logout({ token }, held.refreshToken))?.status;
  });
}

/** The built-in profile that agrees with the most decided options: what the undecided ones are left to. */
function nearestBuiltIn(values: ReadonlyMap<OptionKey, unknown>): ProfileName {
  let best: ProfileName = 'strict';
  let bestScore = -1;
  for (const name of PROFILE_NAMES) {
    const builtIn = BUILT_IN_PROFILES[name] as unknown as Record<string, Record<string, unknown>>;
    let score = 0;
    for (const [key, value] of values) {
      const [group, option] = key.split('.') as [string, string];
      if (sameValue(builtIn[group]?.[option], value)) score++;
    }
    if (score > bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

function build(p: Probe, tokens: TokenCleanup, spent: { beforeQuota: number; inQuota: number }): Observation {
  const at = new Date().toISOString();
  const values = new Map<OptionKey, unknown>();
  const unknown: { option: OptionKey; reason: string }[] = [];
  const evidence: Record<string, Omit<OptionRecord, 'option'>> = {};
  for (const option of ALL_OPTIONS) {
    const record = p.records.get(option) as OptionRecord;
    const { option: _option, ...rest } = record;
    evidence[option] = rest;
    if ('value' in record) values.set(option, record.value);
    else unknown.push({ option, reason: record.unknown });
  }
  const groups: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of values) {
    const [group, option] = key.split('.') as [string, string];
    (groups[group] ??= {})[option] = value;
  }
  const profile: ProfileFile = {
    name: 'observed',
    description: `Observed at ${p.target.baseUrl} by npm run profile (${at}); options no probe could decide are left to the built-in profile it extends, the nearest one.`,
    extends: nearestBuiltIn(values),
    observed: { target: p.target.baseUrl, at, unknown: unknown.map((u) => u.option) },
    ...(groups as Partial<ProfileFile>),
  };
  if (!validateProfile(profile)) throw new Error(`The observed profile is not valid: ${describeProfileError(validateProfile.errors, profile)}`);
  return {
    profile,
    evidence: { target: p.target.baseUrl, authUrl: p.target.authUrl, at, requests: { total: p.counter.sent, ...spent }, tokens, options: evidence },
    unknown,
    requests: p.counter.sent,
    tokens,
  };
}
