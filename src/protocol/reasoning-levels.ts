/**
 * Cody's one reasoning setting, from none to the most; each API maps it to its own control. Imports
 * nothing, so the CLI's option parser can name the levels without loading the rest of the protocol.
 */
export const REASONING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];
