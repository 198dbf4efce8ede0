/**
 * The Gemini API as the real one speaks it: `:streamGenerateContent?alt=sse` with `data:` frames ending
 * in `\r\n\r\n`, each a whole GenerateContentResponse (usage on every chunk, finishReason on the last);
 * `:generateContent` as one JSON; error bodies `{error: {code, message, status, details}}`.
 */
import type { ErrorStep, ProtocolModule, ProtocolRequest, RenderedResponse, ReplyStep } from './types.js';
import { pieces } from './wire-helpers.js';

type Json = Record<string, unknown>;

const ROUTE = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

const STATUS_NAMES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: ['UNAUTHENTICATED', 'API key not valid. Please pass a valid API key.'],
  403: ['PERMISSION_DENIED', 'Permission denied.'],
  404: [
    'NOT_FOUND',
    'models/gemini-fake is not found for API version v1beta, or is not supported for generateContent.',
  ],
  429: ['RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.'],
  500: ['INTERNAL', 'An internal error has occurred.'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
};

function errorBodyFor(status: number, message?: string): Json {
  const [name, text] = STATUS_NAMES[status] ?? ['UNKNOWN', `HTTP ${status}`];
  const body: Json = { code: status, message: message ?? text, status: name };
  if (status === 429) {
    body.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0s' }];
  }
  return { error: body };
}

function invalid(message: string): ErrorStep {
  return { type: 'error', status: 400, body: errorBodyFor(400, message) };
}

function contentsOf(request: ProtocolRequest): Json[] {
  return Array.isArray(request.body.contents) ? (request.body.contents as Json[]) : [];
}

function partsOf(content: Json | undefined): Json[] {
  return content && Array.isArray(content.parts) ? (content.parts as Json[]) : [];
}

export const geminiProtocol: ProtocolModule = {
  api: 'gemini',
  matches: (method, url) => method === 'POST' && ROUTE.test(url.pathname),
  model: (request) => ROUTE.exec(request.url.pathname)?.[1],
  isStream: (request) => request.url.pathname.endsWith(':streamGenerateContent'),

  validate(request) {
    const contents = contentsOf(request);
    if (contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified');
    for (const [index, content] of contents.entries()) {
      if (content.role !== 'user' && content.role !== 'model') {
        return invalid(
          `Please use a valid role: user, model. (contents[${index}].role = ${String(content.role)})`,
        );
      }
      const parts = partsOf(content);
      if (parts.length === 0)
        return invalid(
          `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`,
        );
      const calls = parts
        .filter((part) => part.functionCall)
        .map((part) => String((part.functionCall as Json).name));
      const responses = parts
        .filter((part) => part.functionResponse)
        .map((part) => String((part.functionResponse as Json).name));
      if (responses.length > 0) {
        const previousCalls = partsOf(contents[index - 1])
          .filter((part) => part.functionCall)
          .map((part) => String((part.functionCall as Json).name));
        if (
          contents[index - 1]?.role !== 'model' ||
          responses.some((name) => !previousCalls.includes(name))
        ) {
          return invalid(
            'Please ensure that function response turn comes immediately after a function call turn. And the number of function response parts should be equal to number of function call parts of the function call turn.',
          );
        }
      }
      if (calls.length > 0 && index + 1 < contents.length) {
        const answered = partsOf(contents[index + 1]).filter((part) => part.functionResponse).length;
        if (answered !== calls.length) {
          return invalid(
            'Please ensure that function call turn comes immediately after a user turn or after a function response turn. And the number of function response parts should be equal to number of function call parts of the function call turn.',
          );
        }
      }
    }
    return undefined;
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
    const model = ROUTE.exec(request.url.pathname)?.[1] ?? 'gemini-2.5-flash';
    const usage = step.usage ?? { inputTokens: 10, outputTokens: 5 };
    const responseId = `fake${Date.now().toString(36)}`;
    const partsList: Json[][] = [];
    if (step.reasoning) partsList.push([{ text: step.reasoning, thought: true }]);
    for (const piece of pieces(step.text ?? '', 16)) partsList.push([{ text: piece }]);
    for (const call of step.toolCalls ?? []) {
      partsList.push([
        { functionCall: { name: call.name, args: call.arguments, ...(call.id ? { id: call.id } : {}) } },
      ]);
    }
    if (partsList.length === 0) partsList.push([{ text: '' }]);
    const chunkOf = (parts: Json[], index: number, last: boolean): Json => ({
      candidates: [
        { content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: usage.inputTokens,
        candidatesTokenCount: Math.max(1, Math.round((usage.outputTokens * (index + 1)) / partsList.length)),
        totalTokenCount:
          usage.inputTokens + Math.round((usage.outputTokens * (index + 1)) / partsList.length),
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
      },
      modelVersion: model,
      responseId,
    });
    // Gemini's SSE JSON puts a space after each ':' but none after ','.
    const geminiJson = (value: Json): string => JSON.stringify(value).replace(/":/g, '": ');
    if (!request.url.pathname.endsWith(':streamGenerateContent')) {
      const parts = partsList.flat();
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        chunks: [JSON.stringify(chunkOf(parts, partsList.length - 1, true), null, 2)],
      };
    }
    const frames = partsList.map(
      (parts, index) => `data: ${geminiJson(chunkOf(parts, index, index === partsList.length - 1))}\r\n\r\n`,
    );
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-content-type-options': 'nosniff' },
      chunks: frames,
      ...(step.disconnectAfterFrames !== undefined ? { disconnectAfter: step.disconnectAfterFrames } : {}),
    };
  },

  renderError(step: ErrorStep): RenderedResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=UTF-8',
      ...(step.headers ?? {}),
    };
    if (step.bodyText !== undefined) return { status: step.status, headers, chunks: [step.bodyText] };
    const body =
      step.body ??
      (step.contextOverflow
        ? errorBodyFor(
            400,
            'The input token count (1206135) exceeds the maximum number of tokens allowed (1048575).',
          )
        : errorBodyFor(step.status));
    return { status: step.status, headers, chunks: [JSON.stringify(body, null, 2)] };
  },
};
