/**
 * The Gemini API as the real one speaks it (see provider-recordings/gemini):
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` answers `data: <json>\r\n\r\n` frames, each a
 * whole GenerateContentResponse (usage on every chunk, finishReason on the last, `modelVersion`,
 * `responseId`), in Google's JSON spacing (a space after each `:`, none after `,`); thoughts are
 * `thought: true` parts and function calls arrive whole. Without `alt=sse` the same endpoint answers one
 * pretty-printed JSON array; `:generateContent` answers one JSON object. Errors are
 * `{error: {code, message, status, details}}`, pretty-printed.
 */
import { geminiThinkingProblem } from './reasoning-rules.js';
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { pieces, textPieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

const ROUTE = /\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/** The gRPC status and a real message for each HTTP status the Gemini API answers with. */
const ERRORS: Record<number, [status: string, message: string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: [
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  ],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: [
    'NOT_FOUND',
    'models/gemini-fake is not found for API version v1beta, or is not supported for generateContent. Call ModelService.ListModels to see the list of available models and their supported methods.',
  ],
  429: [
    'RESOURCE_EXHAUSTED',
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
  ],
  500: [
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  ],
  503: [
    'UNAVAILABLE',
    'This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.',
  ],
};

/** The 400 a real user got for an over-long prompt (provider-recordings/gemini/errors-from-issues.json). */
const INPUT_TOO_LONG_BODY_TEXT =
  '{\n  "error": {\n    "code": 400,\n    "message": "The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n';

const RESPONSE_AFTER_CALL =
  'Please ensure that function response turn comes immediately after a function call turn. And the number of function response parts should be equal to number of function call parts of the function call turn.';
const CALL_NOT_ANSWERED =
  'Please ensure that function call turn comes immediately after a user turn or after a function response turn. And the number of function response parts should be equal to number of function call parts of the function call turn.';

let counter = 0;

function errorBody(status: number, message?: string): Json {
  const [name, text] = ERRORS[status] ?? ['UNKNOWN', `HTTP ${status}`];
  const error: Json = { code: status, message: message ?? text, status: name };
  // A real 429 tells how long to wait in RetryInfo; 0s by default so scripted retries stay fast.
  if (status === 429)
    error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Learn more about Gemini API quotas',
            url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0s' },
    ];
  return { error };
}

/** Google pretty-prints error bodies with a 2-space indent and a trailing newline. */
function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Google's SSE JSON: a space after each `:` and none after `,` (string contents untouched). */
export function geminiJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(geminiJson).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .map(([key, field]) => `${JSON.stringify(key)}: ${geminiJson(field)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function invalid(message: string): ErrorStep {
  return { type: 'error', status: 400, body: errorBody(400, message) };
}

function contentsOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.contents) ? (request.body.contents as Json[]) : [];
}

function partsOf(content: Json | undefined): Json[] {
  return content && Array.isArray(content.parts) ? (content.parts as Json[]) : [];
}

function namesOf(content: Json | undefined, field: 'functionCall' | 'functionResponse'): string[] {
  return partsOf(content)
    .map((part) => part[field] as Json | undefined)
    .filter((value): value is Json => typeof value === 'object' && value !== null)
    .map((value) => String(value.name))
    .sort();
}

/** Gemini 3 and later think on every request and sign the first function call of each step. */
function signsCalls(model: string | undefined): boolean {
  return Number(/^gemini-(\d+)/.exec(model ?? '')?.[1] ?? 0) >= 3;
}

/**
 * Gemini 3 rejects a function call of the current turn (everything after the last user content that is
 * not only function responses) whose step carries no thought signature.
 */
function unsignedCallProblem(contents: Json[]): string | undefined {
  const lastUserTurn = contents.findLastIndex(
    (content) =>
      content.role === 'user' && partsOf(content).some((part) => part.functionResponse === undefined),
  );
  for (const [index, content] of contents.entries()) {
    if (index <= lastUserTurn || content.role !== 'model') continue;
    const calls = partsOf(content).filter((part) => part.functionCall);
    if (calls.length === 0 || calls.some((part) => typeof part.thoughtSignature === 'string')) continue;
    const name = String((calls[0]?.functionCall as Json).name);
    return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }
  return undefined;
}

/** What the real API rejects before generating anything, with its error message; undefined when valid. */
function problemWith(request: ProtocolRequest): string | undefined {
  const contents = contentsOf(request);
  if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  for (const [index, content] of contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model') return 'Please use a valid role: user, model.';
    if (partsOf(content).length === 0)
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`;
    const responses = namesOf(content, 'functionResponse');
    if (responses.length > 0) {
      const calls = namesOf(contents[index - 1], 'functionCall');
      if (contents[index - 1]?.role !== 'model' || responses.join('\n') !== calls.join('\n'))
        return RESPONSE_AFTER_CALL;
    }
    const calls = namesOf(content, 'functionCall');
    if (calls.length > 0 && index + 1 < contents.length) {
      if (namesOf(contents[index + 1], 'functionResponse').join('\n') !== calls.join('\n'))
        return CALL_NOT_ANSWERED;
    }
  }
  const model = ROUTE.exec(request.url.pathname)?.[1];
  const thinking = geminiThinkingProblem(model, request.body.generationConfig as Json | undefined);
  if (thinking !== undefined) return thinking;
  return signsCalls(model) ? unsignedCallProblem(contents) : undefined;
}

/** The reply as chunks of parts: thought summaries, text in pieces, then each call whole. */
function chunkParts(step: ReplyStep, model: string): Json[][] {
  const chunks: Json[][] = [];
  for (const thought of pieces(step.reasoning ?? '', 48)) chunks.push([{ text: thought, thought: true }]);
  for (const text of textPieces(step, 16)) chunks.push([{ text }]);
  const calls = step.toolCalls ?? [];
  for (const call of calls)
    chunks.push([
      { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.arguments } },
    ]);
  // A thinking model signs its answer: the first call, else the first text part.
  if (step.reasoning || signsCalls(model)) {
    const signed =
      chunks.find((parts) => parts[0]?.functionCall) ?? chunks.find((parts) => !parts[0]?.thought);
    if (signed?.[0])
      signed[0].thoughtSignature = Buffer.from(`fake-thought-signature:${counter}`).toString('base64');
  }
  // Gemini 3 ends a reply that closes on calls (or has nothing) with an empty text chunk.
  if (chunks.length === 0 || calls.length > 0) chunks.push([{ text: '' }]);
  return chunks;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export const geminiProtocol: ProtocolModule = {
  api: 'gemini',
  matches: (method, url) => method === 'POST' && ROUTE.test(url.pathname),
  model: (request) => ROUTE.exec(request.url.pathname)?.[1],
  isStream: (request) => ROUTE.exec(request.url.pathname)?.[2] === 'streamGenerateContent',

  validate(request) {
    const problem = problemWith(request);
    return problem === undefined ? undefined : invalid(problem);
  },

  lastUserText(request) {
    const last = contentsOf(request)
      .filter(
        (content) =>
          content.role === 'user' && partsOf(content).some((part) => typeof part.text === 'string'),
      )
      .at(-1);
    return partsOf(last)
      .map((part) => (typeof part.text === 'string' ? part.text : ''))
      .join('');
  },

  renderReply(step: ReplyStep, request: ProtocolRequest): RenderedResponse {
    counter += 1;
    const model = ROUTE.exec(request.url.pathname)?.[1] ?? 'gemini-2.5-flash';
    const responseId = `fakeResponse${counter.toString(36).padStart(6, '0')}`;
    const chunks = chunkParts(step, model);
    const inputTokens =
      step.usage?.inputTokens ?? estimateTokens(JSON.stringify(request.body.contents ?? []));
    const thoughtsTokens = step.reasoning ? estimateTokens(step.reasoning) : undefined;
    const outputTokens = step.usage?.outputTokens ?? estimateTokens(JSON.stringify(chunks));
    const answerTokens = Math.max(1, outputTokens - (thoughtsTokens ?? 0));
    const thoughtChunks = chunks.filter((parts) => parts[0]?.thought === true).length;
    const response = (parts: Json[], index: number, last: boolean): Json => {
      // Usage grows chunk by chunk: thoughts are counted once they are done, the answer as it streams.
      const answerSoFar =
        index < thoughtChunks
          ? undefined
          : Math.round((answerTokens * (index - thoughtChunks + 1)) / (chunks.length - thoughtChunks));
      return {
        candidates: [
          { content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 },
        ],
        usageMetadata: {
          promptTokenCount: inputTokens,
          ...(answerSoFar !== undefined ? { candidatesTokenCount: answerSoFar } : {}),
          totalTokenCount: inputTokens + (answerSoFar ?? 0) + (thoughtsTokens ?? 0),
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }],
          ...(thoughtsTokens !== undefined ? { thoughtsTokenCount: thoughtsTokens } : {}),
        },
        modelVersion: model,
        responseId,
      };
    };
    const responses = chunks.map((parts, index) => response(parts, index, index === chunks.length - 1));
    const disconnect =
      step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {};
    if (!geminiProtocol.isStream(request)) {
      const whole = response(chunks.flat(), chunks.length - 1, true);
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        chunks: [prettyJson(whole)],
      };
    }
    if (request.url.searchParams.get('alt') !== 'sse') {
      // Without alt=sse: one JSON array, its elements written as they are produced.
      const elements = responses.map(
        (value, index) => `${index === 0 ? '[' : '\n,\n'}${JSON.stringify(value, null, 2)}`,
      );
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        chunks: [...elements, '\n]'],
        ...disconnect,
      };
    }
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-content-type-options': 'nosniff' },
      chunks: responses.map((value) => `data: ${geminiJson(value)}\r\n\r\n`),
      ...disconnect,
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=UTF-8',
      ...(step.headers ?? {}),
    };
    if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
    if (step.body === undefined && step.contextOverflow)
      return { status: step.status, headers, chunks: [INPUT_TOO_LONG_BODY_TEXT] };
    return { status: step.status, headers, chunks: [prettyJson(step.body ?? errorBody(step.status))] };
  },
};
