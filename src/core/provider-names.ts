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
