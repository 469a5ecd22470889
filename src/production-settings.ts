import { ConfigError, type Config, type Role } from './config.js';

/** The shortest admin or metrics token production takes: 32 characters, as `openssl rand -hex 16` prints. */
export const MIN_PRODUCTION_TOKEN_LENGTH = 32;

interface Rule {
  variable: keyof Config;
  /** The roles whose processes use the variable. */
  roles: readonly Role[];
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
    roles: ['all', 'api'],
    problem: (config) =>
      config.PUBLIC_BASE_URL === undefined
        ? 'must be set: unsubscribe links are built from it, never from a request’s Host header'
        : null,
  },
  {
    variable: 'METRICS_TOKEN',
    roles: ['all', 'api', 'workers'],
    problem: (config) => tokenProblem(config.METRICS_TOKEN, true),
  },
  {
    variable: 'ADMIN_TOKEN',
    roles: ['all', 'api'],
    problem: (config) => tokenProblem(config.ADMIN_TOKEN, false),
  },
  {
    variable: 'WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS',
    roles: ['all', 'api', 'workers'],
    problem: (config) =>
      config.WEBHOOKS_ALLOW_PRIVATE_ENDPOINTS
        ? 'must not be true: it lets any customer make the service call its own network; name internal receivers with WEBHOOKS_PRIVATE_CIDRS'
        : null,
  },
];

/**
 * With NODE_ENV=production, a service process refuses to start on settings that are safe only on a
 * developer's machine, naming each variable at fault. Tools and other environments are not held to
 * them.
 */
export function checkProductionSettings(config: Config, role: Role): void {
  if (config.NODE_ENV !== 'production') return;
  const problems = RULES.filter((rule) => rule.roles.includes(role)).flatMap((rule) => {
    const problem = rule.problem(config);
    return problem === null ? [] : [`${rule.variable} ${problem}`];
  });
  if (problems.length > 0) {
    throw new ConfigError(`Unsafe configuration for NODE_ENV=production: ${problems.join('; ')}`);
  }
}
