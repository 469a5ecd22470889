import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What marks a long file, longest first: the benchmarks' blocks (half a minute to a minute), then
 * thousands of generated cases (fast-check's `numRuns`) and the browser, then the other programs a
 * file starts (the command line, the built service, PostgreSQL or Redis clusters, Prometheus), each
 * from ten seconds up. Most other files take one or two.
 */
const TIERS = [
  /\b(?:runSuite|runReplicaBench|prepareApiBench)\(/,
  /\bnumRuns\b|\buseBrowser\(/,
  /\b(?:spawnCli|startServiceProcess|sharedBuild|startReplicaCluster|useRedisCluster|startPrometheus)\(/,
];

function tierOf(file: TestSpecification): number {
  const source = readFileSync(file.moduleId, 'utf8');
  const tier = TIERS.findIndex((pattern) => pattern.test(source));
  return tier === -1 ? TIERS.length : tier;
}

/**
 * The long files first, by tier, then the others, each tier in vitest's own order (the longest of
 * the last run first; by size when there was none, as on a clean checkout). Ordered by size alone,
 * the benchmarks' small files started among the last, and the run waited half a minute on one
 * alone once every other file was done.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const tiers = new Map(sorted.map((file) => [file, tierOf(file)]));
    // Array.prototype.sort is stable: within a tier, vitest's order stays.
    return sorted.sort((a, b) => (tiers.get(a) ?? 0) - (tiers.get(b) ?? 0));
  }
}
