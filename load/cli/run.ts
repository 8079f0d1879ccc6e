/** `npm run load -- <script> [k6 args]`: the bundles built and checked (load/cli/build.ts), then the script run by load/cli/k6.ts. */
import path from 'node:path';
import { buildLoad, loadEntries } from './build.ts';
import { runLoad } from './k6.ts';
import { runMain } from '../../common/flags.ts';
import { ROOT } from '../../common/root.ts';

/** Builds every bundle (each run starts from the current sources), then names the script's. */
async function bundle(script: string): Promise<string> {
  await buildLoad({ root: ROOT });
  return path.join('dist', 'load', `${script}.js`);
}

runMain(() => runLoad(process.argv.slice(2), { name: 'npm run load --', cwd: ROOT, scripts: loadEntries(ROOT), bundle }), 'load: ');
