import { createRequire } from 'node:module';

/*
 * kafkajs 2.2.4's request queue re-arms a timer on every check, also when nothing is pending:
 * `scheduleCheckPendingRequests` then computes a negative delay (no throttle in place) and an
 * idle connection checks an empty queue about a thousand times a second (kafkajs issues #1556,
 * #1704, unfixed upstream). Every idle producer or consumer connection burned 4-5% of a core,
 * and Node warned `TimeoutNegativeWarning`. Here a check is scheduled only when a request is
 * waiting: at the end of a throttle, or after the library's own 10 ms otherwise. A request that
 * arrives later schedules its own check (`push`), and a finished one checks the queue
 * (`fulfillRequest`), so nothing that waits is left unchecked.
 */

/** The library's pause between checks of a non-empty queue when no throttle is in place. */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

const require = createRequire(import.meta.url);

let patched = false;

/** Patches kafkajs's request queue once per process (see above). */
export function quietKafkaRequestQueue(): void {
  if (patched) return;
  patched = true;
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueueInternals;
  };
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttle = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttle > 0 ? throttle : CHECK_PENDING_REQUESTS_INTERVAL,
    );
  };
}
