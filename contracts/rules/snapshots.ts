/** The rules of Snapshot pagination. */
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
  },
  'snapshot.traversal': {
    level: 'contract',
    statement: 'a walk yields every item of its snapshot exactly once and comes to an end',
    section: 'Endpoints, 3. List content items, pagination rules 1 and 2',
    quote: 'The first request creates a snapshot of the data set. To get the next page, send the same request with `next`…',
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
