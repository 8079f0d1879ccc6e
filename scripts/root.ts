/**
 * The project root for scripts run through scripts/run.mjs: the nearest folder above the entry file
 * (argv[1]) that holds scripts/run.mjs, or the working directory (npm scripts run from the root).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = findRoot(path.dirname(path.resolve(process.argv[1] ?? '.')));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'scripts', 'run.mjs'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
