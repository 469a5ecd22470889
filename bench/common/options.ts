import { parseArgs } from 'node:util';

export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

export interface IntOption {
  /** The flag without dashes, e.g. `batch-size`. */
  flag: string;
  /** The environment variable read when the flag is absent, e.g. `BENCH_BATCH_SIZE`. */
  env: string;
  min: number;
}

/** Parses `--flag value` / `--flag=value` for the given whole-number options; unknown flags are an error. */
export function parseIntOptions<const K extends string>(
  specs: Record<K, IntOption>,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): Record<K, number | undefined> {
  const entries = Object.entries(specs) as [K, IntOption][];
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: Object.fromEntries(entries.map(([, spec]) => [spec.flag, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const flags = entries.map(([, spec]) => `--${spec.flag} N`).join(' ');
    throw new BenchUsageError(`${error instanceof Error ? error.message : String(error)}\nOptions: ${flags}`);
  }

  const result = {} as Record<K, number | undefined>;
  for (const [key, spec] of entries) {
    const fromArgs = values[spec.flag];
    const raw = typeof fromArgs === 'string' ? fromArgs : env[spec.env];
    if (raw === undefined || raw.trim() === '') {
      result[key] = undefined;
      continue;
    }
    // Digits only: Number() would take "", "1e3" and "0x10".
    if (!/^[0-9]+$/.test(raw.trim()))
      throw new BenchUsageError(`--${spec.flag} (or ${spec.env}) must be a whole number, got "${raw}"`);
    const value = Number(raw.trim());
    if (value < spec.min)
      throw new BenchUsageError(`--${spec.flag} (or ${spec.env}) must be at least ${spec.min}, got ${value}`);
    result[key] = value;
  }
  return result;
}
