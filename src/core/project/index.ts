/**
 * The project's instructions (`AGENTS.md`), the user's prompt commands, and the system message.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export {
  instructionsMessage,
  isInstructionsMessage,
  lastInstructionsText,
  loadProjectInstructions,
  noInstructionsText,
} from './project-docs.js';
export type { ProjectDocFile, ProjectInstructions } from './project-docs.js';
export { loadPromptCommands, parseCommandMessage, resolveSlashMessage } from './prompt-commands.js';
export type { PromptCommand, SlashMessage } from './prompt-commands.js';
export { buildSystemMessage } from './system-prompt.js';
