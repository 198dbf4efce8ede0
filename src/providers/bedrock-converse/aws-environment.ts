/**
 * Where the Bedrock client's region and SigV4 credentials come from: `options.env` only, never
 * `process.env` behind the caller's back. Keys in the environment first, then the shared config files'
 * profile (`AWS_PROFILE`, else `default`) with everything a profile may name (SSO, `credential_process`,
 * an assumed role). No EC2/ECS metadata probe: off AWS it waits seconds for a timeout on every start.
 */
import { join } from 'node:path';
import { homedir } from 'node:os';
import { fromIni } from '@aws-sdk/credential-provider-ini';
import type { BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import type { AwsCredentialIdentity } from '@smithy/types';
import { ProviderError, type ClientOptions } from '../../protocol/index.js';
import {
  BEDROCK_API,
  BEDROCK_API_KEY_VARIABLE,
  BEDROCK_BASE_URL_VARIABLE,
  REGION_VARIABLES,
} from './definition.js';

type Env = ClientOptions['env'];

function firstSet(env: Env, names: readonly string[]): string | undefined {
  return names.map((name) => env[name]?.trim() ?? '').find((value) => value !== '');
}

/** The region to sign for and call; a clear `auth` error when none is set. */
export function resolveRegion(env: Env): string {
  const region = firstSet(env, REGION_VARIABLES);
  if (region === undefined) {
    throw new ProviderError({
      api: BEDROCK_API,
      kind: 'auth',
      isRetryable: false,
      message: 'No AWS region for Bedrock: set the AWS_REGION environment variable (e.g. us-east-1).',
    });
  }
  return region;
}

/** The endpoint: config's `baseUrls.bedrock`, then `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, else the region's. */
export function resolveEndpoint(options: Pick<ClientOptions, 'baseUrl' | 'env'>): string | undefined {
  return firstSet({ base: options.baseUrl, ...options.env }, ['base', BEDROCK_BASE_URL_VARIABLE]);
}

/** A Bedrock API key: the one core resolved, else `AWS_BEARER_TOKEN_BEDROCK`. */
export function resolveBedrockApiKey(options: Pick<ClientOptions, 'apiKey' | 'env'>): string | undefined {
  return firstSet({ key: options.apiKey, ...options.env }, ['key', BEDROCK_API_KEY_VARIABLE]);
}

/** The credentials the client signs with. */
export interface AwsCredentialSource {
  provider: NonNullable<BedrockRuntimeClientConfig['credentials']>;
  /** Secrets (secret key, session token) to scrub from any error text. */
  secrets: string[];
}

/**
 * Static keys from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`), else the profile
 * chain of the shared files, whose paths and profile name are read from `env` too.
 */
export function resolveCredentials(env: Env): AwsCredentialSource {
  const accessKeyId = firstSet(env, ['AWS_ACCESS_KEY_ID']);
  const secretAccessKey = firstSet(env, ['AWS_SECRET_ACCESS_KEY']);
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    const sessionToken = firstSet(env, ['AWS_SESSION_TOKEN']);
    const identity: AwsCredentialIdentity = {
      accessKeyId,
      secretAccessKey,
      ...(sessionToken !== undefined ? { sessionToken } : {}),
    };
    return {
      provider: identity,
      secrets: sessionToken !== undefined ? [secretAccessKey, sessionToken] : [secretAccessKey],
    };
  }
  const home = firstSet(env, ['HOME', 'USERPROFILE']) ?? homedir();
  const profile = firstSet(env, ['AWS_PROFILE']) ?? 'default';
  const provider = fromIni({
    profile,
    filepath: firstSet(env, ['AWS_SHARED_CREDENTIALS_FILE']) ?? join(home, '.aws', 'credentials'),
    configFilepath: firstSet(env, ['AWS_CONFIG_FILE']) ?? join(home, '.aws', 'config'),
  });
  return { provider, secrets: [] };
}
