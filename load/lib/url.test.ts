import { expect, test } from '@playwright/test';
import { parseQuery, splitUrl } from '../../contracts/url.ts';
import { encodeQuery, joinUrl } from './url.ts';

test.describe('query strings without URLSearchParams', () => {
  test('encodes names and values, keeps order, drops undefined', () => {
    expect(encodeQuery({ limit: 5, 'filter[start_date]': '2024-01-01', next: undefined, q: 'a b&c' })).toBe(
      'limit=5&filter%5Bstart_date%5D=2024-01-01&q=a%20b%26c',
    );
    expect(encodeQuery({ b: '1', a: '2' })).toBe('b=1&a=2');
    expect(encodeQuery({})).toBe('');
  });

  test('parses with or without ?, decodes %XX and +, keeps a stray % as written', () => {
    expect(parseQuery('?limit=5&filter%5Bend_date%5D=2024-01-01&q=a+b&flag')).toEqual([
      ['limit', '5'],
      ['filter[end_date]', '2024-01-01'],
      ['q', 'a b'],
      ['flag', ''],
    ]);
    expect(parseQuery('')).toEqual([]);
    expect(parseQuery('x=100%')).toEqual([['x', '100%']]);
  });

  test('round-trips through encode and parse', () => {
    const pairs: Array<[string, string]> = [
      ['next', 'pl/Er+SU=='],
      ['filter[modified_after]', '2024-02-29'],
    ];
    expect(parseQuery(encodeQuery(Object.fromEntries(pairs)))).toEqual(pairs);
  });
});

test.describe('absolute URLs without URL', () => {
  test('splits origin, path, query and fragment', () => {
    expect(splitUrl('https://api.example.com:8443/api/v2/content?limit=5&next=abc#x')).toEqual({
      origin: 'https://api.example.com:8443',
      path: '/api/v2/content',
      query: 'limit=5&next=abc',
      fragment: 'x',
    });
    expect(splitUrl('http://127.0.0.1:4011')).toEqual({ origin: 'http://127.0.0.1:4011', path: '', query: '', fragment: '' });
    for (const bad of ['/api/v2/content', 'ftp://x/y', 'https://', 'content?limit=5']) expect(splitUrl(bad)).toBeUndefined();
  });

  test('joins a base (with or without slash) and a path', () => {
    expect(joinUrl('https://api.example.com/', '/api/v2/users', { limit: 1 })).toBe('https://api.example.com/api/v2/users?limit=1');
    expect(joinUrl('https://api.example.com', 'oauth/token')).toBe('https://api.example.com/oauth/token');
  });
});
