/** Drives mock/resources.ts directly, without HTTP: for the tests of pagination, queries and the listing options of profiles. */
import { VirtualClock } from '../clock.ts';
import { errorsArray } from '../error-bodies.ts';
import { bodyText } from '../http.ts';
import type { ProfileFile } from '../profile.ts';
import { type ListRequest, Resources } from '../resources.ts';
import { expect, profiled, START_MS } from './http-fixtures.ts';

export const BASE = 'http://127.0.0.1:9';

/** Resources on a manual clock, under the strict profile or the options given over it; `list` and `walk` answer parsed bodies. */
export function setup(options: { items?: number; profile?: ProfileFile } = {}) {
  const clock = new VirtualClock(() => START_MS);
  const profile = profiled(options.profile ?? {});
  const resources = new Resources({ clock, seed: 1, items: options.items ?? 250, users: 30, snapshotTtlSeconds: 120, profile });
  const list = (search: string, more: Partial<ListRequest> = {}) => {
    const result = resources.list({ endpoint: 'listContent', clientId: 'a', provider: undefined, search, baseUrl: BASE, ...more });
    return { status: result.status, body: 'body' in result ? JSON.parse(bodyText(result.body)) : JSON.parse(errorsArray(result.error).text) };
  };
  /** Follows links.next to the end; returns every page's body. */
  const walk = (search: string, more: Partial<ListRequest> = {}) => {
    const pages = [list(search, more).body];
    for (let i = 0; i < 10_000; i++) {
      const next = pages.at(-1).links.next;
      if (!next) return pages;
      const page = list(next.slice(next.indexOf('?') + 1), more);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      pages.push(page.body);
    }
    throw new Error('walk did not end');
  };
  const ids = (pages: Array<{ data: Array<{ id: string }> }>) => pages.flatMap((p) => p.data.map((d) => d.id));
  return { clock, resources, list, walk, ids };
}

export const cursorOf = (next: string) => decodeURIComponent(next.slice(next.indexOf('next=') + 5));
