/** The providers Cody knows by name (kept free of zod: the library's public types reach it). */
export const PROVIDERS = [
  'openai',
  'anthropic',
  'google',
  'openrouter',
  'ollama',
  'lmstudio',
  'vllm',
] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}
