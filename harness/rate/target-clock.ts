/** The target's clock for the rate-limit specs: moved through a control plane where there is one, else waited for in real time: one spec body serves both. */
import type { TestInfo } from '@playwright/test';
import type { ControlClient } from '../client/control.ts';
import { RATE_WAIT_SLACK_MS } from '../client/throttle.ts';
import type { Verdict } from '../verdict/verdict.ts';
/** The target's time, and a way to let it pass. */
export interface TargetClock {
  /** True when the target's clock is read and moved through its control plane; false: real time, ours. */
  readonly moved: boolean;
  /** How far the target's clock may be from the one `now` reads: 0 when it reads the target's. */
  readonly slackMs: number;
  /** Epoch ms: the target's clock where it can be read, ours otherwise. */
  now(): Promise<number>;
  /**
   * Returns once `now()` is at least `ms`: moves the target's clock, or sleeps, growing the test's
   * timeout by as much; a wait longer than `maxWaitMs` is not made: the test is not checked, saying `what` it waited for.
   */
  reach(ms: number, what?: string): Promise<void>;
  /** The longest wait `reach` makes in real time (throttle.ts, rateWaitBoundMs); unbounded when the clock is moved. */
  readonly maxWaitMs: number;
}

/** The clock of a target with a control plane: read and moved through it, never waited for. */
export function controlledClock(control: ControlClient): TargetClock {
  return {
    moved: true,
    slackMs: 0,
    maxWaitMs: Number.POSITIVE_INFINITY,
    now: () => control.now(),
    async reach(ms) {
      const now = await control.now();
      if (ms > now) await control.advance((ms - now) / 1000);
    },
  };
}

/** The clock of a target without one: ours, waited for in real time. */
export function realTimeClock(testInfo: TestInfo, verdict: Verdict, { maxWaitMs, slackMs }: Pick<TargetClock, 'maxWaitMs' | 'slackMs'>): TargetClock {
  return {
    moved: false,
    slackMs,
    maxWaitMs,
    now: async () => Date.now(),
    async reach(ms, what = 'the time the target named') {
      const wait = ms - Date.now();
      if (wait <= 0) return;
      // What the target said to make this wait so long was judged where it was read; the run never waits for it.
      if (wait > maxWaitMs)
        verdict.notChecked(
          `Not checked: it needs ${what} (${new Date(ms).toISOString()}), ${Math.ceil(wait / 1000)} s away: longer than the ` +
            `${maxWaitMs / 1000} s a run waits in real time (one period of the rate in force and ${RATE_WAIT_SLACK_MS / 1000} s).`,
        );
      testInfo.setTimeout(testInfo.timeout + wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
    },
  };
}
