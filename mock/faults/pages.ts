/** Faults at the `pages` seam: what a page reads, where a walk goes on, and the next value handed out. */
import type { ContentFilterName } from '../../contracts/endpoints.ts';
import type { PagePlan } from '../seams.ts';
import { type FaultTable, profileOf } from './fault.ts';

function withoutFilter(name: ContentFilterName) {
  return () => ({
    seams: {
      pages: {
        plan: (plan: PagePlan): PagePlan => {
          if (!plan.filters.has(name)) return plan;
          const filters = new Map(plan.filters);
          filters.delete(name);
          return { ...plan, filters };
        },
      },
    },
  });
}

export const PAGE_FAULTS: FaultTable<
  | 'limit-ignored'
  | 'limit-off-by-one'
  | 'filter-start-date-ignored'
  | 'filter-end-date-ignored'
  | 'filter-modified-after-ignored'
  | 'filter-modified-before-ignored'
  | 'snapshot-sees-changes'
  | 'item-repeated-across-pages'
  | 'item-dropped-across-pages'
  | 'next-loops'
  | 'next-unchanged'
> = {
  'limit-ignored': (o) => {
    const size = profileOf(o).query.limitDefault;
    return { seams: { pages: { plan: (plan) => ({ ...plan, size }) } } };
  },
  'limit-off-by-one': () => ({ seams: { pages: { plan: (plan) => ({ ...plan, size: plan.size + 1 }) } } }),
  'filter-start-date-ignored': withoutFilter('filter[start_date]'),
  'filter-end-date-ignored': withoutFilter('filter[end_date]'),
  'filter-modified-after-ignored': withoutFilter('filter[modified_after]'),
  'filter-modified-before-ignored': withoutFilter('filter[modified_before]'),
  // The live data instead of the snapshot's revision and count.
  'snapshot-sees-changes': () => ({ seams: { pages: { plan: (plan, live) => ({ ...plan, revision: live.revision, end: live.count }) } } }),
  'item-repeated-across-pages': () => ({
    seams: { pages: { advance: (plan, page) => (plan.page === 0 && page.lastTaken >= 0 ? page.lastTaken : page.position) } },
  }),
  'item-dropped-across-pages': () => ({
    seams: { pages: { advance: (plan, page) => (plan.page === 0 && page.lastTaken >= 0 && page.position < plan.end ? page.position + 1 : page.position) } },
  }),
  'next-loops': () => ({ seams: { pages: { advance: (plan, page) => (plan.page >= 1 && page.position < plan.end ? 0 : page.position) } } }),
  'next-unchanged': () => ({ seams: { pages: { cursor: (fresh, previous) => previous ?? fresh } } }),
};
