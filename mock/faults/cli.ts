/** `tsx mock/faults/cli.ts --fault <name>… [mock flags]`: `npm run mock` with faults on, the same JSON line; an unknown fault exits 2 with one sentence. */
import { runMockCli } from '../cli.ts';
import { FAULT_NAMES, type FaultName, isFaultName } from './catalogue.ts';
import { createFaultyMock } from './index.ts';

if (require.main === module) {
  runMockCli(process.argv.slice(2), {
    extraFlags: { fault: { type: 'string', multiple: true } },
    usage: `  --fault <name>          break one rule of the API document (repeatable): ${FAULT_NAMES.join(', ')}`,
    create: (options, extra) => {
      const names = (extra.fault ?? []) as string[];
      const unknown = names.find((name) => !isFaultName(name));
      if (unknown !== undefined) throw new Error(`--fault "${unknown}" is not a known fault (the names are in mock/faults/catalogue.ts).`);
      return createFaultyMock(options, names as FaultName[]);
    },
  });
}
