/** The fault layer, the only place that knows faults: createFaultyMock builds the mock with their options and seam wrappers (mock/seams.ts). */
import { createMock, type MockOptions, type MockServer } from '../app.ts';
import type { MockSeams, PageSeam } from '../seams.ts';
import { FAULT_NAMES, FAULTS, type FaultName, isFaultName } from './catalogue.ts';

export { FAULT_NAMES, FAULTS, type FaultName, isFaultName } from './catalogue.ts';

/** `b` applied over `a` (b wraps what a returns). */
function then<T, C>(a: ((inner: T, core: C) => T) | undefined, b: ((inner: T, core: C) => T) | undefined): ((inner: T, core: C) => T) | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return (inner, core) => b(a(inner, core), core);
}

function pagesThen(a: PageSeam | undefined, b: PageSeam | undefined): PageSeam | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const plan: PageSeam['plan'] = a.plan && b.plan ? (p, live) => b.plan!(a.plan!(p, live), live) : (a.plan ?? b.plan);
  const advance: PageSeam['advance'] =
    a.advance && b.advance ? (p, page) => b.advance!(p, { ...page, position: a.advance!(p, page) }) : (a.advance ?? b.advance);
  const cursor: PageSeam['cursor'] = a.cursor && b.cursor ? (fresh, previous) => b.cursor!(a.cursor!(fresh, previous), previous) : (a.cursor ?? b.cursor);
  return { ...(plan ? { plan } : {}), ...(advance ? { advance } : {}), ...(cursor ? { cursor } : {}) };
}

/** Seams applied in order: each wraps what the ones before it made. */
export function composeSeams(list: readonly MockSeams[]): MockSeams {
  return list.reduce<MockSeams>((all, s) => {
    const exchange: MockSeams['exchange'] =
      all.exchange && s.exchange ? (id, inner, core) => s.exchange!(id, all.exchange!(id, inner, core), core) : (all.exchange ?? s.exchange);
    const parts: MockSeams = {
      clients: then(all.clients, s.clients),
      tokens: then(all.tokens, s.tokens),
      access: then(all.access, s.access),
      rateLimit: then(all.rateLimit, s.rateLimit),
      pages: pagesThen(all.pages, s.pages),
      exchange,
    };
    return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as MockSeams;
  }, {});
}

/** The mock of `options` with `faults` switched on (each once, in catalogue order). Throws a RangeError naming an unknown fault. */
export function createFaultyMock(options: MockOptions, faults: readonly FaultName[]): MockServer {
  for (const name of faults)
    if (!isFaultName(name)) throw new RangeError(`unknown fault "${String(name)}" (the faults are listed in mock/faults/catalogue.ts).`);
  let built: MockOptions = options;
  const seams: MockSeams[] = options.seams ? [options.seams] : [];
  for (const name of FAULT_NAMES) {
    if (!faults.includes(name)) continue;
    const { options: change, seams: wrap } = FAULTS[name];
    if (change) built = change(built);
    if (wrap) seams.push(wrap(built));
  }
  return createMock({ ...built, seams: composeSeams(seams) });
}

/** Rules that some fault breaks (for the matrix and the catalogue's own test). */
export function faultsOfRule(rule: string): FaultName[] {
  return FAULT_NAMES.filter((name) => FAULTS[name].rule === rule);
}
