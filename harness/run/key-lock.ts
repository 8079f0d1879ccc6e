/**
 * One holder at a time of a key's requests, across the run's worker processes: the tests that count a key's budget request by request hold it, and so do the
 * real-time walks that use the same key beside them, between their pauses. A file made atomically in the run's output directory, naming its holder's process; a
 * holder that died, or held it longer than anyone does (a few requests), loses it.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const STALE_MS = 60_000;
const POLL_MS = 100;

/** Held from `acquire()` (which waits for the holder before it) to `release()`; releasing a lock not held does nothing. */
export function keyLock(dir: string, clientId: string) {
  const file = path.join(dir, `.lp-key-lock-${Buffer.from(clientId).toString('hex')}`);
  let held = false;
  return {
    async acquire(): Promise<void> {
      mkdirSync(dir, { recursive: true });
      while (!held) {
        try {
          writeFileSync(file, String(process.pid), { flag: 'wx' });
          held = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          if (stale(file)) rmSync(file, { force: true });
          else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
    },
    release(): void {
      if (held) rmSync(file, { force: true });
      held = false;
    },
  };
}

function stale(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > STALE_MS) return true;
    process.kill(Number(readFileSync(file, 'utf8')), 0);
    return false;
  } catch (error) {
    // Gone meanwhile: try again. No such process: its holder died without releasing it.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** `body` with the key's lock held. */
export async function holdingKey<T>(dir: string, clientId: string, body: () => Promise<T>): Promise<T> {
  const lock = keyLock(dir, clientId);
  await lock.acquire();
  try {
    return await body();
  } finally {
    lock.release();
  }
}
