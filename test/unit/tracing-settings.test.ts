import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { tracingRequested } from '../../src/tracing/tracing.js';

describe('when traces are exported', () => {
  it.each<[Record<string, string>, boolean, string]>([
    [{}, false, 'nothing set'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true, 'an OTLP endpoint'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true, 'a traces endpoint'],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true, 'the OTLP exporter named, to its default endpoint'],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true, 'the console exporter'],
    [
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
      false,
      'the exporter none',
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false, 'the SDK disabled'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false, 'an empty endpoint'],
    [{ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://collector:4318/v1/metrics' }, false, 'only a metrics endpoint'],
  ])('when the environment has %j, then tracing is %s (%s)', (env, expected) => {
    expect(tracingRequested(loadConfig(env))).toBe(expected);
  });
});
