/**
 * Core's one door for this package's front ends (src/cli, src/server, and the editor and MCP front ends
 * to come): they import core only through this file (eslint.config.js holds them to it, with no
 * exceptions). The engine is `createCody`: everything a front end does with conversations is on `Cody`
 * and `Conversation` (cody-api.ts); `Session`, `ConversationManager` and the tool runtime stay inside core.
 * Beside it, the leaf helpers that hold no engine state: errors, config and paths, sign-in and keys, the
 * redactor, selection and the model catalogue, project files, the event and plan types. The bundles stay
 * split: package.json marks the sources free of side effects, so a command's chunk holds only what it uses.
 */
export { createCody } from './engine/index.js';
export type { Cody, CreateCodyOptions } from './engine/index.js';
export type { EditorFiles } from './tools/index.js';
export type {
  ConversationDraft,
  ExportOptions,
  StartOptions,
  TurnDiff,
  UndoRequest,
} from './engine/index.js';
export type { ConversationPeek } from './engine/index.js';
export { costOf } from './selection/index.js';
export type { UsageTotals } from './selection/index.js';
export { failureOf, thrownBy } from './conversation/index.js';
export type { Conversation, SubmitOptions } from './conversation/index.js';
export type { AlwaysScope, ApprovalDecision, PendingApproval, SessionEvent } from './conversation/index.js';
export { REASONING_LEVELS, type ReasoningLevel } from '../protocol/index.js';
export type { LiveRun, LiveRunKind, LiveWatch } from './live-channel/index.js';
export type { ImageInput } from './images/index.js';
export { loadImage } from './images/index.js';
export { sniffImageType } from './images/index.js';
export type { CodyNotice, SelectionChoice, SessionStatus } from './conversation/index.js';
export type { McpServerStatus } from './mcp/index.js';
export type { HookEntry, HookListing } from './hooks/index.js';
export type { ForkOptions } from './store/index.js';
export type { TranscriptPage, TranscriptPageMeta, TranscriptPageOptions } from './rollout/index.js';
export type { ConversationSummary } from './rollout/index.js';
export type { RecapMessage, Transcript, TranscriptEntry, TranscriptMeta } from './rollout/index.js';
export type { UndoResult } from './undo/index.js';

// Errors.
export { CodyError, StorageError, UnsentMessageError, UsageError, errorMessage, isErrno } from './errors.js';
export type { ErrorHint, ErrorKind } from './errors.js';

// Config and paths.
export type { CodyConfig, CodyPaths, Selection } from './config/index.js';
export {
  DEFAULT_PROVIDER,
  allApiNames,
  apiNameOf,
  apiNamesOf,
  isProvider,
  isWireApi,
} from './config/index.js';
export { listsModels, providerList, providerSettings, providersListingModels } from './config/index.js';
export {
  ensureCodyHome,
  loadConfig,
  resolveCodyPaths,
  resolveSelection,
  saveConfig,
} from './config/index.js';
export { signInModes, toWireApi } from './config/index.js';

// Sign-in and keys.
export type { ProviderAuthStatus } from './auth/index.js';
export { claudeCredentialsFile, clientCredentials, codexAuthFile, endpointOf } from './auth/index.js';
export {
  endpointSettings,
  keyFromEnvironment,
  keyStoreFile,
  lastFour,
  loginProviders,
} from './auth/index.js';
export { updateStoredKey } from './auth/index.js';

// Selection and the model catalogue.
export {
  MODEL_ID,
  applyProviderChoice,
  droppedSignIn,
  inferProvider,
  isKnownModel,
} from './selection/index.js';
export { lookupModelLimits, providerCatalogue, tokenWindowPhrase } from './selection/index.js';
export { cachedModelList, canListModels, providerModelList } from './selection/index.js';

// The redactor.
export type { Matchers, Redactor } from './redact/index.js';
export {
  REDACTED,
  compileMatchers,
  createRedactor,
  environmentSecrets,
  knownSecrets,
} from './redact/index.js';
export { redactDeep, redactText, replaceSecrets } from './redact/index.js';

// Readers of the conversations directory (bare `cody list`), workspaces, export formats.
export { EXPORT_FORMATS, isConversationId, listConversations, readActiveId } from './store/index.js';
export type { ExportFormat } from './store/index.js';
export { isInWorkspace, workspaceFirst, workspaceOf } from './store/index.js';

// A turn's changed files, the wire API of a status.
export { changesSince } from './undo/index.js';
export { wireApiOf } from './selection/index.js';

// Project files, the tool policy and the plan.
export { isInstructionsMessage, loadPromptCommands } from './project/index.js';
export type { ProjectDocFile, ProjectInstructions } from './project/index.js';
export type { PromptCommand, SlashMessage } from './project/index.js';
export { APPROVAL_POLICIES, UPDATE_PLAN_TOOL, isApprovalPolicy, noSandboxWarning } from './tools/index.js';
export type { ApprovalPolicy, Plan } from './tools/index.js';
export { toolEnvironment } from './tools/index.js';
