import { describe, expect, it } from 'vitest';
import { parseLsn, PrimaryTimeline } from '../../src/db/replica-lag.js';

describe('a replica’s lag from WAL positions', () => {
  it('when the primary has been idle for minutes and the replica has replayed everything, then its lag is 0', () => {
    const timeline = new PrimaryTimeline();
    for (let at = 0; at <= 120_000; at += 200) timeline.record(at, parseLsn('0/3000060'));
    expect(timeline.position(parseLsn('0/3000060'), 120_100)).toEqual({
      caughtUpTo: 120_000,
      atNewest: true,
      lagMs: 0,
    });
  });

  it('when the replica has not replayed the newest positions, then its lag runs from the last sample it has reached', () => {
    const timeline = new PrimaryTimeline();
    timeline.record(0, 100n);
    timeline.record(200, 100n);
    timeline.record(400, 150n);
    timeline.record(600, 200n);
    // At 100 it has everything committed before 200 (the last time the primary was seen at 100),
    // and may lack what was committed after: as late as that, not as the sample at 400.
    expect(timeline.position(120n, 1000)).toEqual({ caughtUpTo: 200, atNewest: false, lagMs: 800 });
    expect(timeline.position(150n, 1000)).toEqual({ caughtUpTo: 400, atNewest: false, lagMs: 600 });
  });

  it('when the replica is behind every sample kept, then it is caught up to no time and at least as late as the oldest', () => {
    const timeline = new PrimaryTimeline();
    timeline.record(5000, 500n);
    expect(timeline.position(400n, 6000)).toEqual({ caughtUpTo: undefined, atNewest: false, lagMs: 1000 });
  });

  it('when no sample was taken yet, then the replica is caught up to no time', () => {
    expect(new PrimaryTimeline().position(100n, 0).caughtUpTo).toBeUndefined();
  });

  it('when a position is written in PostgreSQL’s X/Y form, then it reads as its byte number', () => {
    expect(parseLsn('0/3000060')).toBe(0x3000060n);
    expect(parseLsn('1A/FF')).toBe((0x1an << 32n) + 0xffn);
    expect(() => parseLsn('3000060')).toThrow(/not a WAL position/);
  });
});
