import { ConfigError, type Config } from './config.js';

/** The shortest admin or metrics token production takes: 32 characters, as `openssl rand -hex 16` prints. */
export const MIN_PRODUCTION_TOKEN_LENGTH = 32;

interface Rule {
  variable: keyof Config;
  /** Why the setting is unsafe, or null when it is not. */
  problem: (config: Config) => string | null;
}

const tokenProblem = (token: string | undefined, required: boolean): string | null => {
  if (token === undefined) return required ? `must be set (at least ${MIN_PRODUCTION_TOKEN_LENGTH} characters)` : null;
  return token.length < MIN_PRODUCTION_TOKEN_LENGTH
    ? `must be at least ${MIN_PRODUCTION_TOKEN_LENGTH} characters (it has ${token.length})`
    : null;
};

const RULES: readonly Rule[] = [
  {
    variable: 'PUBLIC_BASE_URL',
    problem: (config) =>
      config.PUBLIC_BASE_URL === undefined
        ? 'must be set: unsubscribe links are built from it, never from a request’s Host header'
        : null,
  },
  {
    variable: 'METRICS_TOKEN',
    problem: (config) => tokenProblem(config.METRICS_TOKEN, true),
  },
  {
    variable: 'ADMIN_TOKEN',
    problem: (config) => tokenProblem(config.ADMIN_TOKEN, false),
  },
  {
    variable: 'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS',
    problem: (config) =>
      config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS
        ? 'must not be true: it lets any customer make the service call its own network; name internal receivers with WEBHOOKS_PRIVATE_CIDRS'
        : null,
  },
];

/**
 * With NODE_ENV=production, a service process refuses to start on settings that are safe only on a
 * developer's machine, naming each variable at fault. Every role is held to the same rules, though
 * a workers-only process builds no link and serves no dashboard: the roles of one deployment share
 * their settings, and a setting that passes in one would pass in all. Tools and other environments
 * are not held to them.
 */
export function checkProductionSettings(config: Config): void {
  if (config.NODE_ENV !== 'production') return;
  const problems = RULES.flatMap((rule) => {
    const problem = rule.problem(config);
    return problem === null ? [] : [`${rule.variable} ${problem}`];
  });
  if (problems.length > 0) {
    throw new ConfigError(`Unsafe configuration for NODE_ENV=production: ${problems.join('; ')}`);
  }
}
