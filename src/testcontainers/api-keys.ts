import type { StartedTestContainer } from 'testcontainers';

export type ApiKeyPermission = 'full_access' | 'sending_access';

/** A key the service issued, as `keys create --json` prints it. */
export interface IssuedApiKey {
  accountId: string;
  keyId: string;
  /** The bearer token; the service keeps only its hash. */
  token: string;
}

export interface ApiKeyRequest {
  /** The account's name; the account is made when it does not exist yet. */
  account: string;
  permission?: ApiKeyPermission;
  /** A label for the key. */
  name?: string;
}

/**
 * Issues a key with the service's own command line inside its container (`keys create`), the way
 * an operator makes one: the service has no HTTP endpoint that makes accounts or keys.
 */
export async function issueApiKey(container: StartedTestContainer, request: ApiKeyRequest): Promise<IssuedApiKey> {
  const permission = request.permission ?? 'full_access';
  const command = ['node', 'dist/cli/main.js', 'keys', 'create', '--account', request.account, '--json'];
  command.push('--permission', permission, '--name', request.name ?? permission);
  const result = await container.exec(command);
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  let issued: { account_id?: unknown; key_id?: unknown; token?: unknown } = {};
  try {
    issued = JSON.parse(line) as typeof issued;
  } catch {
    // Said below, with what the command wrote.
  }
  if (
    result.exitCode !== 0 ||
    typeof issued.account_id !== 'string' ||
    typeof issued.key_id !== 'string' ||
    typeof issued.token !== 'string'
  ) {
    const said = `${result.stderr}\n${result.stdout}`.trim().split('\n').slice(-5).join('\n');
    throw new Error(`keys create in the container failed (exit ${result.exitCode}): ${said}`);
  }
  return { accountId: issued.account_id, keyId: issued.key_id, token: issued.token };
}
