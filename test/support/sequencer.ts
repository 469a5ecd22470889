import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What a file calls to start other programs (the command line, the built service, Chromium,
 * PostgreSQL or Redis clusters, Prometheus, the benchmarks) or to run thousands of generated cases
 * (fast-check's `numRuns`). Such a file takes from ten seconds to a minute, where most take one or two.
 */
const STARTS_PROGRAMS =
  /\b(?:runCli|startServiceProcess|sharedBuild|useBrowser|startReplicaCluster|useRedisCluster|startPrometheus|runSuite|runReplicaBench)\(|\bnumRuns\b/;

/**
 * The files that start other programs first, then the others, each in vitest's own order (the
 * longest of the last run first; by size when there was none). On a clean checkout, ordered by size,
 * the benchmarks' small files started among the last, and the run waited half a minute on one
 * alone once every other file was done.
 */
export default class ProgramsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const starting = new Set(sorted.filter((file) => STARTS_PROGRAMS.test(readFileSync(file.moduleId, 'utf8'))));
    return [...sorted.filter((file) => starting.has(file)), ...sorted.filter((file) => !starting.has(file))];
  }
}
