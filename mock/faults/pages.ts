/** Faults at the `pages` seam: what a page reads, where a walk goes on, and the next value handed out. */
import type { ContentFilterName } from '../../contracts/endpoints.ts';
import type { PagePlan } from '../seams.ts';
import { fault, profileOf } from './fault.ts';

function withoutFilter(name: ContentFilterName) {
  const plan = (p: PagePlan): PagePlan => (p.filters.has(name) ? { ...p, filters: new Map([...p.filters].filter(([filter]) => filter !== name)) } : p);
  return () => ({ pages: { plan } });
}

export const PAGE_FAULTS = {
  'limit-ignored': fault('content.limit', 'limit is ignored: pages hold the default count', (o) => {
    const size = profileOf(o).query.limitDefault;
    return { pages: { plan: (plan) => ({ ...plan, size }) } };
  }),
  'limit-off-by-one': fault('content.limit', 'a page holds limit + 1 items', () => ({ pages: { plan: (plan) => ({ ...plan, size: plan.size + 1 }) } })),
  'filter-start-date-ignored': fault('platform.filters', 'filter[start_date] is ignored', withoutFilter('filter[start_date]')),
  'filter-end-date-ignored': fault('platform.filters', 'filter[end_date] is ignored', withoutFilter('filter[end_date]')),
  'filter-modified-after-ignored': fault('platform.filters', 'filter[modified_after] is ignored', withoutFilter('filter[modified_after]')),
  'filter-modified-before-ignored': fault('platform.filters', 'filter[modified_before] is ignored', withoutFilter('filter[modified_before]')),
  // The live data instead of the snapshot's revision and count.
  'snapshot-sees-changes': fault('snapshot.isolation', 'a walk shows items created or changed after its first request', () => ({
    pages: { plan: (plan, live) => ({ ...plan, revision: live.revision, end: live.count }) },
  })),
  'item-repeated-across-pages': fault('snapshot.traversal', 'the last item of the first page comes again on the second', () => ({
    pages: { advance: (plan, page) => (plan.page === 0 && page.lastTaken >= 0 ? page.lastTaken : page.position) },
  })),
  'item-dropped-across-pages': fault('snapshot.traversal', 'one item between the first and second page is never served', () => ({
    pages: { advance: (plan, page) => (plan.page === 0 && page.lastTaken >= 0 && page.position < plan.end ? page.position + 1 : page.position) },
  })),
  'next-loops': fault('snapshot.traversal', 'the next value of the second page leads back to the first page, and so on forever', () => ({
    pages: { advance: (plan, page) => (plan.page >= 1 && page.position < plan.end ? 0 : page.position) },
  })),
  'next-unchanged': fault('snapshot.next', 'each page hands out the next value it was asked with', () => ({
    pages: { cursor: (fresh, previous) => previous ?? fresh },
  })),
};
