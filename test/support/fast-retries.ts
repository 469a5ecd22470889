/** Retries a test can wait for: the schedule's shape, in milliseconds. */
export const FAST_RETRIES = [100, 200, 300];
