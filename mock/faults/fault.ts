import type { RuleId } from '../../contracts/rules/index.ts';
import type { MockOptions, Profile } from '../app.ts';
import { BUILT_IN_PROFILES } from '../profile.ts';
import type { MockSeams } from '../seams.ts';

/**
 * One fault: the rule of contracts/rules/ it breaks, a few words saying what (docs/fault-matrix.md), then how: other options for the mock (scopes widened, a
 * lifetime halved) and wrappers at the core's seams (mock/seams.ts), both made from the faulty mock's options so a wrapper can read them.
 */
export interface Fault {
  readonly rule: RuleId;
  readonly breaks: string;
  readonly options?: (options: MockOptions) => MockOptions;
  readonly seams?: (options: MockOptions) => MockSeams;
}

/** A fault made by wrappers at the seams. */
export function fault(rule: RuleId, breaks: string, seams: (options: MockOptions) => MockSeams): Fault {
  return { rule, breaks, seams };
}

/** A fault made by other options alone. */
export function configured(rule: RuleId, breaks: string, options: (options: MockOptions) => MockOptions): Fault {
  return { rule, breaks, options };
}

/** The profile the mock will run with. */
export function profileOf(options: MockOptions): Profile {
  return options.profile ?? BUILT_IN_PROFILES.strict;
}

/** A flat header list without `name` (any case). */
export function withoutHeader(headers: readonly string[], name: string): string[] {
  const out: string[] = [];
  const lower = name.toLowerCase();
  for (let i = 0; i < headers.length; i += 2) if ((headers[i] as string).toLowerCase() !== lower) out.push(headers[i] as string, headers[i + 1] as string);
  return out;
}

/** A flat header list with `name` set to `value` (added when absent). */
export function withHeader(headers: readonly string[], name: string, value: string): string[] {
  return [...withoutHeader(headers, name), name, value];
}
