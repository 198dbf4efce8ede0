/**
 * Help text that names providers, APIs and sign-ins, written from the providers' registry so a wire API
 * added there appears in `--help` with no edit here. Reads the registry's entry point (definitions and
 * their data only, no client).
 */
import { apisOfProvider, providerPresets } from '../providers/lookup.js';

/** `a, b or c`. */
function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

/** Every provider: `openai, anthropic, google, openrouter, ollama, lmstudio or vllm`. */
export function providersHelp(): string {
  return orList(providerPresets().map((preset) => preset.name));
}

/** The providers `cody auth login` stores a key for. */
export function loginProvidersHelp(): string {
  return orList(providerPresets().flatMap((preset) => (preset.storesKey === true ? [preset.name] : [])));
}

/** `chat|responses (openai), messages (anthropic), gemini (google), chat (presets)`. */
export function apisHelp(): string {
  const presets = providerPresets();
  const own = presets
    .filter((preset) => preset.preset !== true)
    .map((preset) => {
      const names = apisOfProvider(preset.name).map((definition) => definition.apiName);
      return `${names.join('|')} (${preset.name})`;
    });
  const shared = [
    ...new Set(
      presets
        .filter((preset) => preset.preset === true)
        .flatMap((preset) => apisOfProvider(preset.name).map((definition) => definition.apiName)),
    ),
  ];
  return [...own, ...(shared.length > 0 ? [`${shared.join('|')} (presets)`] : [])].join(', ');
}

/** `chatgpt (openai sign-in), claude (anthropic sign-in) or key`. */
export function signInsHelp(): string {
  const modes = providerPresets().flatMap((preset) =>
    preset.signIn ? [`${preset.signIn.mode} (${preset.name} sign-in)`] : [],
  );
  return orList([...modes, 'key']);
}
