/** The key lock: one holder at a time, the next waits; a lock whose holder died is taken over. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { keyLock } from './key-lock.ts';

test('the second holder waits for the first to release the key, and another key is free meanwhile', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'key-lock-'));
  const [first, second, other] = [keyLock(dir, 'org'), keyLock(dir, 'org'), keyLock(dir, 'provider')];
  await first.acquire();
  let waited = true;
  const waiting = second.acquire().then(() => (waited = false));
  await other.acquire();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(waited).toBe(true);
  first.release();
  await waiting;
  second.release();
  other.release();
  // Releasing twice, or a lock never held, removes no one else's.
  first.release();
  expect(readdirSync(dir)).toEqual([]);
});

test('a lock whose holder process is gone is taken over', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'key-lock-'));
  const lock = keyLock(dir, 'org');
  await lock.acquire();
  const [file] = readdirSync(dir);
  lock.release();
  // A pid no process has (above the kernel's pid_max).
  writeFileSync(path.join(dir, file ?? ''), '4194305');
  await lock.acquire();
  lock.release();
});
