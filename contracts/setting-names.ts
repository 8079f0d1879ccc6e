/**
 * `LP_*` names the settings table does not know: a misspelt setting (`LP_QOUTA=1`) would otherwise be
 * ignored without a word, and the run would not be the one its user asked for. Each gets a warning
 * naming the closest known setting; the run goes on (a name may belong to another tool).
 */
import { SETTINGS } from './settings.ts';

/** Warnings, one sentence each, for the `LP_*` names of `env` with a value that no setting has. */
export function unknownSettingWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = Object.keys(SETTINGS);
  return Object.keys(env)
    .filter((name) => name.startsWith('LP_') && !known.includes(name) && (env[name] ?? '').trim() !== '')
    .sort()
    .map((name) => `warning: ${name} is not a setting of this suite; did you mean ${closest(name, known)}?`);
}

function closest(name: string, known: readonly string[]): string {
  let best = known[0] ?? '';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance, with a transposition counted as one edit (QOUTA → QUOTA). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = d;
    }
  }
  return at(a.length, b.length);
}
