/**
 * One observation of a target: the probe groups in their order, then the profile file and the evidence built from what they recorded. The order matters for the
 * budget: the timed probes want a silent key, so they come first; the 429 probe spends what is left of a window, so it comes last, after every token but the
 * one it reads with is logged out.
 */
import { BUILT_IN_PROFILES, describeProfileError, PROFILE_NAMES, type ProfileName, ruleOfOption } from '../../mock/profile.ts';
import { validateProfile } from '../../schemas/index.ts';
import type { ProfileFile } from '../../schemas/types.ts';
import { redact } from '../client/redact.ts';
import type { Target } from '../run/target.ts';
import { mainToken, probeAuth, probeLogout, probeTokens, probeUsers } from './auth.ts';
import { optionsOf, sameValue } from './compare.ts';
import { decideTimestamps, probePagination, probeQuery } from './content.ts';
import { decideRateFromSettings, decideResetDigits, probeCountsTokenRequests, probeQuota, probeTimed } from './rate-limit.ts';
import { ALL_OPTIONS, type OptionKey, type OptionRecord, Probe, type ProbeSettings } from './session.ts';
import { logOutEach, type TokenCleanup } from '../run/session.ts';

/** The profile observed (valid against schemas/profile.schema.json; undecided options are left to `extends`), its evidence, the options left unknown with the reason. */
export async function observe(target: Target, settings: ProbeSettings) {
  const p = new Probe(target, settings);
  const token = (await mainToken(p)).accessToken;
  const stopped: string[] = [];
  const run = async (name: string, probe: (p: Probe, token: string) => Promise<unknown>) => {
    try {
      await probe(p, token);
    } catch (error) {
      // One group stopping (the budget spent, an answer it could not read) leaves its options unknown, not the run.
      stopped.push(redact(`the ${name} probes stopped: ${(error as Error).message}`));
    }
  };
  const probes = { timing: probeTimed, tokens: probeTokens, query: probeQuery, auth: probeAuth, pagination: probePagination, users: probeUsers };
  for (const [name, probe] of Object.entries({ ...probes, logout: probeLogout, 'rate limit': probeCountsTokenRequests })) await run(name, probe);
  decideTimestamps(p);
  decideResetDigits(p);
  decideRateFromSettings(p);
  // The schema's one rule across options: a links.next that carries only next is served without the query.
  if (p.value('pagination.nextLink') === 'cursor-only' && p.value('pagination.nextWithoutQuery') === undefined)
    p.decide('pagination.nextWithoutQuery', 'accept', 'implied: links.next carries only next, and links.next is the address of the next page');
  const before = await logOut(p, (t) => t !== token);
  const beforeQuota = p.counter.sent;
  await run('429', probeQuota);
  const after = await logOut(p, () => true);
  const sum = (key: keyof TokenCleanup) => before[key] + after[key];
  const tokens: TokenCleanup = { issued: sum('issued'), loggedOut: sum('loggedOut'), alreadyEnded: sum('alreadyEnded'), failed: sum('failed') };
  const undecided = ALL_OPTIONS.filter((option) => !p.records.has(option));
  p.unknown(undecided, stopped.length > 0 ? `no probe decided it; ${stopped.join('; ')}` : 'no probe decided it');
  const spent = { total: p.counter.sent, beforeQuota, inQuota: p.counter.sent - beforeQuota - after.issued };
  const at = new Date().toISOString();
  const unknown: { option: OptionKey; reason: string }[] = [];
  const groups: Record<string, Record<string, unknown>> = {};
  for (const option of ALL_OPTIONS) {
    const record = p.records.get(option) as OptionRecord;
    const [group, name] = option.split('.') as [string, string];
    if ('value' in record) (groups[group] ??= {})[name] = record.value;
    else unknown.push({ option, reason: record.unknown });
  }
  // The built-in that agrees with the most decided options: what the undecided ones are left to.
  const agreed = (name: ProfileName) =>
    [...optionsOf(groups)].filter(([option, value]) => sameValue(optionsOf(BUILT_IN_PROFILES[name]).get(option), value)).length;
  const profile: ProfileFile = {
    name: 'observed',
    description: `Observed at ${target.baseUrl} by npm run profile (${at}); options no probe could decide are left to the built-in profile it extends, the nearest one.`,
    extends: PROFILE_NAMES.reduce((best, name) => (agreed(name) > agreed(best) ? name : best)),
    observed: { target: target.baseUrl, at, unknown: unknown.map((u) => u.option) },
    ...(groups as Partial<ProfileFile>),
  };
  if (!validateProfile(profile)) throw new Error(`The observed profile is not valid: ${describeProfileError(validateProfile.errors, profile)}`);
  const options = Object.fromEntries(ALL_OPTIONS.map((option) => [option, { rule: ruleOfOption(option), ...p.records.get(option) }]));
  return { profile, evidence: { target: target.baseUrl, authUrl: target.authUrl, at, requests: spent, tokens, options }, unknown, tokens };
}

/** Logs out the tokens of the ledger `which` picks, their refresh tokens with them; the budget never stops a logout. */
async function logOut(p: Probe, which: (token: string) => boolean): Promise<TokenCleanup> {
  const picked = [...p.session.ledger].filter(([token]) => which(token));
  p.counter.cap = Math.max(p.counter.cap, p.counter.sent + picked.length);
  return logOutEach(picked, async ([token, refreshToken]) => {
    p.session.ledger.delete(token);
    return (await p.api.logout({ token }, refreshToken)).status;
  });
}
