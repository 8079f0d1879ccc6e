/**
 * What a fault is made of: other options for the mock (a key's scopes widened, a snapshot lifetime
 * halved) and wrappers at the core's seams (mock/seams.ts). Built from the options the faulty mock
 * is created with, so that a wrapper can read them (the keys, the profile).
 */
import type { RuleId } from '../../contracts/rules/index.ts';
import type { MockOptions, Profile } from '../app.ts';
import { BUILT_IN_PROFILES } from '../profile.ts';
import type { MockSeams } from '../seams.ts';
import type { FaultName } from './catalogue.ts';

/**
 * What a fault breaks, written in its module's `*_FAULT_INFO` beside how (`*_FAULTS`): the rule of
 * contracts/rules/ and a few words. mock/faults/catalogue.ts gathers them.
 */
export interface FaultInfo {
  readonly rule: RuleId;
  readonly breaks: string;
}

interface FaultParts {
  /** The options the mock is created with instead of those given. */
  readonly options?: MockOptions;
  readonly seams?: MockSeams;
}

type Fault = (options: MockOptions) => FaultParts;

export type FaultTable<N extends FaultName = FaultName> = Readonly<Record<N, Fault>>;

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

/** The value of `name` in a flat header list. */
export function headerOf(headers: readonly string[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (let i = 0; i < headers.length; i += 2) if ((headers[i] as string).toLowerCase() === lower) return headers[i + 1];
  return undefined;
}
