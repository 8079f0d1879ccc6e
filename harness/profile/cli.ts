/**
 * `npm run profile`: learns the behaviour profile of the target the LP_* settings name (read the suite's way, with its production guard) from its answers
 * alone, and writes it with its evidence (docs/profiles.md). Exit codes: 0 done, 1 drift from --compare or a run that could not start, 2 a bad flag or setting.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { readDefaulted } from '../../common/settings.ts';
import { productionRefusal, readConfig } from '../run/config.ts';
import { preflightLines } from '../preflight/index.ts';
import { redact } from '../client/redact.ts';
import { remoteTarget, startEmbeddedMock } from '../run/target.ts';
import { ruleOfOption } from '../../mock/profile.ts';
import { compareProfiles, readSavedProfile } from './compare.ts';
import { observe } from './observe.ts';
import type { ProbeSettings } from './session.ts';
import { commandName, parseCommandLine, runMain, usage } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';

const USAGE = `Usage: ${commandName('profile')} [--out <file>] [--compare <saved profile>]

  --out <file>        where the observed profile goes (default reports/profile.json of the current
                      folder); the evidence goes beside it, <name>-evidence.json. Inside the
                      repository only under reports/.
  --compare <saved>   a saved profile file (or strict, platform, lenient): lists the options that
                      changed since, and exits 1 if any did.
  --help, -h          this text

The target, keys and budget come from the LP_* settings (docs/configuration.md).`;

/** The command line and the settings it runs with; a bad flag or setting ends the command with its sentence, exit 2. */
function command() {
  try {
    const options = { out: { type: 'string' }, compare: { type: 'string' } } as const;
    const { values } = parseCommandLine('profile', USAGE, { args: process.argv.slice(2), options, strict: true, allowPositionals: false });
    const profile = path.resolve(values.out ?? path.join('reports', 'profile.json'));
    // Inside the repository, only under reports/ (ignored by git): a run must never overwrite a tracked file.
    if (profile.startsWith(ROOT + path.sep) && !profile.startsWith(path.join(ROOT, 'reports') + path.sep))
      usage(`--out must be under reports/ inside the repository, got ${values.out}.`);
    // Once, here, from the current folder (npm run's is the root); the real environment wins over .env, as for the suite.
    dotenv.config({ quiet: true });
    const config = readConfig(process.env);
    const settings: ProbeSettings = { ...config, snapshotLifetimeSeconds: readDefaulted(process.env, 'LP_SNAPSHOT_LIFETIME') };
    const saved = values.compare === undefined ? undefined : { name: values.compare, profile: readSavedProfile(values.compare) };
    return { saved, paths: { profile, evidence: `${profile.replace(/\.json$/i, '')}-evidence.json` }, config, settings };
  } catch (error) {
    return usage((error as Error).message);
  }
}

async function main(): Promise<number> {
  const { saved, paths, config, settings } = command();
  // The preflight's lines: the target probed, and misspelt LP_* names.
  for (const line of preflightLines(config, process.env)) console.log(line);
  const { target, close } =
    config.target.kind === 'remote' ? { target: remoteTarget(config.target), close: async () => {} } : await startEmbeddedMock(config.target);
  // readConfig refused a production host already (the one guard); kept as a last line before any request.
  const refusal = productionRefusal(target, config.allowProduction);
  if (refusal !== undefined) return usage(refusal);
  try {
    console.log(`profile: probing ${target.baseUrl} (token host ${target.authUrl})`);
    const observation = await observe(target, settings);
    mkdirSync(path.dirname(paths.profile), { recursive: true });
    writeFileSync(paths.profile, `${JSON.stringify(observation.profile, null, 2)}\n`);
    writeFileSync(paths.evidence, `${JSON.stringify(observation.evidence, null, 2)}\n`);
    const { tokens } = observation;
    console.log(
      `profile: ${observation.evidence.requests.total} requests; tokens: ${tokens.issued} issued, ${tokens.loggedOut} logged out, ${tokens.alreadyEnded} already ended`,
    );
    if (tokens.failed > 0) console.log(`profile: ${tokens.failed} token(s) could not be logged out: they stay valid until they expire`);
    console.log(`profile: ${observation.unknown.length} option(s) unknown:`);
    for (const { option, reason } of observation.unknown) console.log(`  ${option} (${ruleOfOption(option)}): ${reason}`);
    console.log(`profile: wrote ${path.relative(process.cwd(), paths.profile)} and ${path.relative(process.cwd(), paths.evidence)}`);
    if (saved === undefined) return 0;
    const { drift, undecided } = compareProfiles(saved.profile, observation.profile);
    for (const d of drift) console.log(`drift: ${d.option} (${d.rule}) was ${JSON.stringify(d.saved)}, is now ${JSON.stringify(d.observed)}`);
    if (undecided.length > 0) console.log(`compare: not decided this time, so not compared: ${undecided.join(', ')}`);
    console.log(drift.length === 0 ? `compare: no drift from ${saved.name}` : `compare: ${drift.length} option(s) changed since ${saved.name}`);
    return drift.length === 0 ? 0 : 1;
  } finally {
    await close();
  }
}

runMain(main, (error) => {
  process.stderr.write(`profile: ${redact((error as Error).message)}\n`);
  return 1;
});
