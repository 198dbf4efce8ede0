/**
 * AWS Bedrock's Converse API: one request shape for the models Bedrock hosts (Claude, Nova, Llama,
 * Mistral, DeepSeek, …), streamed with ConverseStream, signed with SigV4 from the AWS environment.
 */
import { claudeModelEntries, claudePriceEntries } from '../anthropic-messages/claude-models.js';
import type { ProviderDefinition } from '../definition.js';

// The names and model-id rules this folder's modules share live here: `cody list` loads the registry's
// definitions, and this file alone of the folder (nothing else of it, no SDK).

/** The wire API id. */
export const BEDROCK_API = 'bedrock-converse';

/** The variables naming the region, in the order the AWS SDKs read them. */
export const REGION_VARIABLES = ['AWS_REGION', 'AWS_DEFAULT_REGION'] as const;

/** The AWS SDKs' own variable overriding Bedrock Runtime's endpoint (`baseUrls.bedrock` wins over it). */
export const BEDROCK_BASE_URL_VARIABLE = 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME';

/** A Bedrock API key (AWS's own variable): sent as a bearer token instead of signing with SigV4. */
export const BEDROCK_API_KEY_VARIABLE = 'AWS_BEARER_TOKEN_BEDROCK';

/** The secrets of the SigV4 chain: never handed to tools, redacted like a key. */
export const AWS_SECRET_VARIABLES = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;

/** Cross-region inference profile prefixes (`us.anthropic.claude-…`): the same model, routed. */
const INFERENCE_PROFILE_PREFIX = /^(us|us-gov|eu|apac|ap|ca|jp|au|global)\./;

/** The model id without its inference-profile prefix, lower-cased. */
export function baseModelId(model: string): string {
  return model
    .toLowerCase()
    .replace(/^arn:.*\//, '')
    .replace(INFERENCE_PROFILE_PREFIX, '');
}

export function isClaude(model: string): boolean {
  return baseModelId(model).startsWith('anthropic.claude');
}

export function isNova2(model: string): boolean {
  return baseModelId(model).startsWith('amazon.nova-2');
}

/**
 * A model's family for replaying its reasoning signatures: every Claude model accepts Claude's (as on
 * Anthropic's API); any other model only its own id, whatever region prefix it was called through.
 */
export function bedrockModelFamily(model: string): string {
  if (isClaude(model)) return 'anthropic.claude';
  return baseModelId(model).replace(/-v\d+(:\d+)?$/, '');
}

/** A Bedrock model id: an optional cross-region prefix (`us.`), then `vendor.model`. */
const BEDROCK_MODEL_ID =
  /^((us|us-gov|eu|apac|ap|ca|jp|au|global)\.)?(anthropic|amazon|meta|mistral|cohere|ai21|deepseek|qwen|openai|writer)\./;

export const definition: ProviderDefinition = {
  api: BEDROCK_API,
  apiName: 'converse',
  title: 'AWS Bedrock Converse',
  providers: [
    {
      name: 'bedrock',
      // Claude Sonnet 4.5 through the US cross-region profile: the newest Sonnet whose Bedrock id AWS has
      // published in the documentation Cody's catalogue was written from.
      defaultModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      // A Bedrock API key, when one is set; otherwise the client signs with the AWS credential chain.
      keyVariables: [BEDROCK_API_KEY_VARIABLE],
      secretVariables: AWS_SECRET_VARIABLES,
      baseUrlVariable: BEDROCK_BASE_URL_VARIABLE,
      // No default endpoint: it is the region's, which the client derives from AWS_REGION.
      // No key needed: credentials come from the AWS environment or profile at the first request.
      needsKey: false,
      credentialHint:
        'AWS_BEARER_TOKEN_BEDROCK, or the AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE) and AWS_REGION',
      ownsModels: BEDROCK_MODEL_ID,
      knownModels: [
        'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
        'us.anthropic.claude-opus-4-6-v1',
        'us.anthropic.claude-sonnet-4-6',
        'us.anthropic.claude-opus-4-5-20251101-v1:0',
        'us.anthropic.claude-haiku-4-5-20251001-v1:0',
        'us.anthropic.claude-opus-4-1-20250805-v1:0',
        'us.anthropic.claude-sonnet-4-20250514-v1:0',
        'anthropic.claude-3-5-haiku-20241022-v1:0',
        'us.amazon.nova-pro-v1:0',
        'us.amazon.nova-lite-v1:0',
        'us.amazon.nova-micro-v1:0',
        'us.deepseek.r1-v1:0',
        'us.meta.llama3-3-70b-instruct-v1:0',
      ],
    },
  ],
  // Converse takes an image of at most 3.75 MB of bytes: 5 MB in base64.
  imageLimits: { perImage: 5 * 1024 * 1024, label: 'Bedrock Converse' },
  createClient: async (options) => (await import('./client.js')).createBedrockConverseClient(options),
  modelFamily: bedrockModelFamily,
  // Claude's figures are Anthropic's (claude-models.ts); the others from AWS's Bedrock model cards,
  // https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html. Ids may carry a
  // cross-region prefix. Most specific first.
  models: [
    ...claudeModelEntries('anthropic\\.'),
    { pattern: /anthropic\.claude-/, contextWindow: 200_000, maxOutputTokens: 8_192 },
    { pattern: /amazon\.nova-(pro|lite|premier)/, contextWindow: 300_000, maxOutputTokens: 10_000 },
    { pattern: /amazon\.nova-micro/, contextWindow: 128_000, maxOutputTokens: 10_000, noImages: true },
    {
      pattern: /deepseek\.r1/,
      contextWindow: 128_000,
      maxOutputTokens: 32_768,
      reasoning: true,
      noImages: true,
    },
    { pattern: /meta\.llama3/, contextWindow: 128_000, maxOutputTokens: 8_192, noImages: true },
  ],
  // AWS's on-demand list prices (us-east-1, https://aws.amazon.com/bedrock/pricing/), USD per million
  // tokens; Claude's match Anthropic's.
  prices: [
    ...claudePriceEntries('anthropic\\.'),
    { pattern: /amazon\.nova-pro/, input: 0.8, cachedInput: 0.2, output: 3.2 },
    { pattern: /amazon\.nova-lite/, input: 0.06, cachedInput: 0.015, output: 0.24 },
    { pattern: /amazon\.nova-micro/, input: 0.035, cachedInput: 0.00875, output: 0.14 },
    { pattern: /deepseek\.r1/, input: 1.35, output: 5.4 },
    { pattern: /meta\.llama3-3-70b/, input: 0.72, output: 0.72 },
  ],
};
