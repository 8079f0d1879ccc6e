/**
 * Where the project is, and how a child process runs one of its TypeScript entry files. tsx runs every `.ts` entry (npm scripts and children alike); this file
 * sits in common/, so the project root is its parent whatever the working directory.
 */
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

/** The arguments of `node` that run `entry` (relative to the root) with `args`, after `nodeFlags` (V8 options), through tsx. */
export function tsNodeArgs(entry: string, args: readonly string[] = [], nodeFlags: readonly string[] = []): string[] {
  return [...nodeFlags, '--import', 'tsx', path.join(ROOT, entry), ...args];
}
