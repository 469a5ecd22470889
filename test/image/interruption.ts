let interruptedBy: NodeJS.Signals | undefined;

/** The signal that asked the run to stop, if one did. */
export function interruption(): NodeJS.Signals | undefined {
  return interruptedBy;
}

/**
 * From here, SIGINT or SIGTERM stops the run at its next step, so that its clean-up still removes
 * what it made; a second signal exits at once.
 */
export function stopAtNextStepOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruptedBy !== undefined) process.exit(130);
      interruptedBy = signal;
      console.log(`${signal}: stopping, then removing the containers, the database and the Redis keys`);
    });
  }
}

/** Throws once a signal has asked the run to stop: the caller's clean-up then runs. */
export function stopIfInterrupted(): void {
  if (interruptedBy !== undefined) throw new Error(`interrupted by ${interruptedBy}`);
}
