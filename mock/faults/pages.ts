/** Faults at the `pages` seam: what a page reads, where a walk goes on, and the next value handed out. */
import type { ContentFilterName } from '../../contracts/endpoints.ts';
import type { PagePlan } from '../seams.ts';
import { type FaultInfo, type FaultTable, profileOf } from './fault.ts';

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

export const PAGE_FAULT_INFO = {
  'limit-ignored': { rule: 'content.limit', breaks: 'limit is ignored: pages hold the default count' },
  'limit-off-by-one': { rule: 'content.limit', breaks: 'a page holds limit + 1 items' },
  'filter-start-date-ignored': { rule: 'platform.filters', breaks: 'filter[start_date] is ignored' },
  'filter-end-date-ignored': { rule: 'platform.filters', breaks: 'filter[end_date] is ignored' },
  'filter-modified-after-ignored': { rule: 'platform.filters', breaks: 'filter[modified_after] is ignored' },
  'filter-modified-before-ignored': { rule: 'platform.filters', breaks: 'filter[modified_before] is ignored' },
  'snapshot-sees-changes': { rule: 'snapshot.isolation', breaks: 'a walk shows items created or changed after its first request' },
  'item-repeated-across-pages': { rule: 'snapshot.traversal', breaks: 'the last item of the first page comes again on the second' },
  'item-dropped-across-pages': { rule: 'snapshot.traversal', breaks: 'one item between the first and second page is never served' },
  'next-loops': { rule: 'snapshot.traversal', breaks: 'the next value of the second page leads back to the first page, and so on forever' },
  'next-unchanged': { rule: 'snapshot.next', breaks: 'each page hands out the next value it was asked with' },
} as const satisfies Record<string, FaultInfo>;

export const PAGE_FAULTS: FaultTable<keyof typeof PAGE_FAULT_INFO> = {
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
