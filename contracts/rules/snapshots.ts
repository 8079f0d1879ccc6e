/** The rules of Snapshot pagination; snapshot.next and snapshot.traversal observe each step of a walk (contracts/walk-sequence.ts). */
import { walkPageBound } from '../pagination.ts';
import type { WalkStep } from '../walk-sequence.ts';
import { held, type Judgement } from './exchange.ts';
import { inArea } from './rule.ts';

export const SNAPSHOT_RULES = inArea('snapshots', {
  'snapshot.isolation': {
    level: 'contract',
    statement: 'a walk shows the data set as it was at its first request: items created or changed after it do not show',
    section: 'Endpoints, 3. List content items, pagination rule 1; States and transitions',
    quote:
      'The first request creates a snapshot of the data set. — none | First list request | Endpoint supports pagination | snapshot active | A snapshot of the paginated data set is taken.',
  },
  'snapshot.next': {
    level: 'contract',
    statement: 'each page but the last supplies a new next value, and the same request with the newest next gives the following page',
    section: 'Endpoints, 3. List content items, pagination rules 2 and 3',
    quote:
      'To get the next page, send the same request with `next` set to the value taken from `links.next`. Each response supplies a new `next` value; use the newest one on each call.',
    observe: (step: WalkStep): Judgement => {
      if ('whole' in step) return undefined;
      const { status, page, cursor, lastCursor } = step;
      const why = status === 410 ? ' (the snapshot became obsolete mid-walk)' : status === 429 ? ' (rate limited: the walk went over the budget)' : '';
      if (status !== 200) return { expected: `200 for page ${page} of the walk`, got: `${status}${why}` };
      return held(!cursor || cursor !== lastCursor, 'a new next value on each page', () => `the next value of page ${page - 1} again`);
    },
  },
  'snapshot.traversal': {
    level: 'contract',
    statement: 'a walk yields every item of its snapshot exactly once and comes to an end',
    section: 'Endpoints, 3. List content items, pagination rules 1 and 2',
    quote: 'The first request creates a snapshot of the data set. To get the next page, send the same request with `next`…',
    observe: observeTraversal,
  },
  'snapshot.alive': {
    level: 'contract',
    statement: 'a request with the newest next within 2 minutes of the previous request of the set continues the snapshot',
    section: 'States and transitions',
    quote:
      'snapshot active | Request with `next` | Within 2 minutes of the previous request of the set | snapshot active | A new `next` value is returned for the following page.',
  },
  'snapshot.expiry': {
    level: 'contract',
    statement: 'after 2 minutes without a request with next the snapshot can no longer be continued (4xx); a request without next starts a new one',
    section: 'Endpoints, 3. List content items, pagination rule 4; States and transitions; Limits',
    quote:
      'If no request with `next` is made for 2 minutes, the snapshot becomes obsolete. — snapshot active | No request with `next` | 2 minutes elapse | snapshot obsolete | The snapshot can no longer be continued.',
  },
  'platform.obsolete-status': {
    level: 'platform',
    statement: 'the next value of an obsolete snapshot is refused with 410',
    basis: 'mock',
    note: 'The document does not give the status of an obsolete snapshot.',
  },
});

/** Each page: new items only, a next value not handed out before, the final page within maxPages; the whole walk: its length and item count. */
function observeTraversal(step: WalkStep): Judgement {
  if ('whole' in step) {
    const { whole, pages, items, limit, expectedCount } = step;
    if (whole === 'count') return expectedCount === undefined ? undefined : held(items === expectedCount, `${expectedCount} distinct items`, () => `${items}`);
    const bound = limit === undefined ? undefined : walkPageBound(items, limit);
    return bound === undefined ? undefined : held(pages <= bound, `at most ${bound} pages for ${items} items of limit ${limit}`, () => `${pages}`);
  }
  const { data, duplicates, page, cursor, lastCursor, handedOutOn, limit, maxPages } = step;
  if (data === undefined) return undefined;
  // A repeated item ends the walk at once: a cursor leading back to pages seen would be followed to maxPages (minutes against a real service) before a word.
  if (duplicates.length > 0) {
    const shown = duplicates.slice(0, 3).join(', ') + (duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : '');
    const reached = lastCursor === undefined ? 'the first request (no next)' : `next=${lastCursor}`;
    return { expected: 'every item of the snapshot once', got: `item ${shown} again on page ${page}, reached with ${reached}` };
  }
  // The loop and the end are judged only past a new next value (snapshot.next).
  if (!cursor || cursor === lastCursor) return null;
  if (handedOutOn !== undefined)
    return { expected: 'a next value not handed out before', got: `next=${cursor}, first handed out on page ${handedOutOn}: the walk would loop` };
  const of = limit === undefined ? '' : ` of limit ${limit}`;
  return step.sampled || page < maxPages ? null : { expected: `the final page within ${maxPages} pages`, got: `still none after ${page} pages${of}` };
}
