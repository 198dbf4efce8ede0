/**
 * A loopback HTTP server that speaks the five LLM wire protocols exactly enough for the official SDKs:
 * scripted per test, recording every request it receives. Protocol specifics live in one module per API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ErrorStep,
  FakeApi,
  ProtocolModule,
  ProtocolRequest,
  RecordedRequest,
  RenderedResponse,
  Step,
} from './types.js';
import { protocolModules } from './protocols.js';
import { type FakeModelLimits, listingBody, listingRefusal, listingShapeOf } from './model-lists.js';

export interface FakeProviderOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Host to bind; loopback only. */
  host?: string;
  /** Delay between streamed chunks in ms (default 0). */
  chunkDelayMs?: number;
}

/** Characters per token the fake uses when it has to invent usage figures. */
const FAKE_CHARS_PER_TOKEN = 4;
/** Longest automatic echo reply, so echoing a big compaction prompt stays small. */
const ECHO_LIMIT = 200;

export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Step[] = [];
  private server: Server | undefined;
  private readonly modules: ProtocolModule[];
  private readonly options: FakeProviderOptions;
  /** Model ids `GET …/models` lists (each API's list shape: model-lists.ts). */
  models: string[] = ['llama3.1:8b', 'qwen2.5-coder:7b'];
  /** The limits Anthropic's and Gemini's lists report per id (absent: none reported). */
  modelLimits: Record<string, FakeModelLimits> = {};
  /** Most models one page of a paged list holds (Anthropic's, Gemini's). */
  listPageSize = 1000;
  /** When set, a model request it refuses is answered 401 (e.g. only the newest access token is valid). */
  authorize: ((headers: IncomingMessage['headers']) => boolean) | undefined;

  constructor(options: FakeProviderOptions = {}, modules: ProtocolModule[] = protocolModules) {
    this.options = options;
    this.modules = modules;
  }

  /** Starts listening; resolves with the base URL (`http://127.0.0.1:PORT`). */
  async start(): Promise<string> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this.url;
  }

  get url(): string {
    if (!this.server) throw new Error('fake provider not started');
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Queues steps; each model request consumes one, in order. */
  enqueue(...steps: Step[]): void {
    this.queue.push(...steps);
  }

  /** Steps queued but not yet consumed. */
  get pending(): number {
    return this.queue.length;
  }

  /** Requests to model endpoints (control requests excluded). */
  modelRequests(api?: FakeApi): RecordedRequest[] {
    return this.requests.filter((request) => request.api !== 'unknown' && (!api || request.api === api));
  }

  reset(): void {
    this.queue.length = 0;
    this.requests.length = 0;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const rawBody = await readBody(request);
    if (url.pathname.startsWith('/__fake/')) {
      this.handleControl(request.method ?? 'GET', url, rawBody, response);
      return;
    }
    const method = request.method ?? 'GET';
    if (method === 'GET' && /\/(models|key)$/.test(url.pathname)) {
      this.answerListing(request, url, response);
      return;
    }
    const module = this.modules.find((candidate) => candidate.matches(method, url));
    let body: unknown;
    try {
      body = rawBody.length > 0 ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    if (!module) {
      this.requests.push({
        api: 'unknown',
        method,
        url: url.pathname + url.search,
        headers: request.headers,
        body,
        model: undefined,
        stream: false,
        answeredWith: { type: 'error', status: 404 },
      });
      writeJson(response, 404, {
        error: { message: `fake provider: no route for ${method} ${url.pathname}` },
      });
      return;
    }
    const protocolRequest: ProtocolRequest = {
      url,
      body: isRecord(body) ? body : {},
      headers: request.headers,
    };
    const record: RecordedRequest = {
      api: module.api,
      method,
      url: url.pathname + url.search,
      headers: request.headers,
      body,
      model: module.model(protocolRequest),
      stream: module.isStream(protocolRequest),
      answeredWith: { type: 'reply' },
    };
    this.requests.push(record);

    if (!hasCredentials(request, url) || (this.authorize && !this.authorize(request.headers))) {
      const step: ErrorStep = { type: 'error', status: 401 };
      record.answeredWith = step;
      await this.write(response, module.renderError(step));
      return;
    }
    const invalid = module.validate(protocolRequest);
    if (invalid) {
      record.rejected = JSON.stringify(invalid.body ?? invalid.bodyText ?? invalid.status);
      record.answeredWith = invalid;
      await this.write(response, module.renderError(invalid));
      return;
    }
    const queued = this.queue.shift();
    const step =
      queued?.type === 'reply' && queued.textDeltas
        ? { ...queued, text: queued.textDeltas.join('') }
        : (queued ?? this.autoReply(module, protocolRequest));
    record.answeredWith = step;
    switch (step.type) {
      case 'reply':
        await this.write(response, module.renderReply(step, protocolRequest));
        return;
      case 'error':
        await this.write(response, module.renderError(step));
        return;
      case 'raw':
        await this.write(response, {
          status: step.status ?? 200,
          headers: step.headers ?? { 'content-type': 'text/event-stream; charset=utf-8' },
          chunks: step.chunks,
          ...(step.binary ? { binary: step.binary } : {}),
        });
        return;
      default: {
        const exhaustive: never = step;
        throw new Error(`unknown step ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  /**
   * `GET …/models` in the shape of the API asking (model-lists.ts), and OpenRouter's `GET …/key`,
   * recorded like any request; refused without credentials or by `authorize`.
   */
  private answerListing(request: IncomingMessage, url: URL, response: ServerResponse): void {
    const shape = listingShapeOf(url, request.headers);
    // OpenAI-shaped lists are also what local servers answer without a key; Anthropic and Google need one.
    const refused =
      (shape !== 'openai' && !hasCredentials(request, url)) ||
      (this.authorize !== undefined && !this.authorize(request.headers));
    this.requests.push({
      api: 'unknown',
      method: 'GET',
      url: url.pathname + url.search,
      headers: request.headers,
      body: undefined,
      model: undefined,
      stream: false,
      answeredWith: refused ? { type: 'error', status: 401 } : { type: 'reply' },
    });
    if (refused) {
      writeJson(response, 401, listingRefusal(shape));
      return;
    }
    writeJson(
      response,
      200,
      listingBody(shape, url, { ids: this.models, limits: this.modelLimits, pageSize: this.listPageSize }),
    );
  }

  private autoReply(module: ProtocolModule, request: ProtocolRequest): Step {
    const said = module.lastUserText(request).replace(/\s+/g, ' ').trim();
    const text = `echo: ${said.length > ECHO_LIMIT ? `${said.slice(0, ECHO_LIMIT)}…` : said}`;
    const inputTokens = Math.ceil(JSON.stringify(request.body).length / FAKE_CHARS_PER_TOKEN);
    return { type: 'reply', text, usage: { inputTokens, outputTokens: Math.ceil(text.length / 4) } };
  }

  private handleControl(method: string, url: URL, rawBody: string, response: ServerResponse): void {
    if (method === 'POST' && url.pathname === '/__fake/script') {
      const parsed: unknown = JSON.parse(rawBody || '[]');
      const steps = (Array.isArray(parsed) ? parsed : [parsed]) as Step[];
      this.enqueue(...steps);
      writeJson(response, 200, { queued: steps.length, pending: this.queue.length });
      return;
    }
    if (method === 'GET' && url.pathname === '/__fake/requests') {
      writeJson(response, 200, this.requests);
      return;
    }
    if (method === 'POST' && url.pathname === '/__fake/reset') {
      this.reset();
      writeJson(response, 200, { ok: true });
      return;
    }
    writeJson(response, 404, { error: `unknown control route ${method} ${url.pathname}` });
  }

  private async write(response: ServerResponse, rendered: RenderedResponse): Promise<void> {
    response.writeHead(rendered.status, rendered.headers);
    response.flushHeaders();
    const delay = this.options.chunkDelayMs ?? 0;
    for (const [index, chunk] of (rendered.binary ?? rendered.chunks).entries()) {
      if (rendered.disconnectAfter !== undefined && index >= rendered.disconnectAfter) {
        // A dropped connection: the socket closes with the response unfinished.
        response.socket?.destroy();
        return;
      }
      response.write(chunk);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      else await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  }
}

function hasCredentials(request: IncomingMessage, url: URL): boolean {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^(Bearer|AWS4-HMAC-SHA256) \S+/.test(authorization)) return true;
  if (typeof request.headers['x-api-key'] === 'string' && request.headers['x-api-key'] !== '') return true;
  if (typeof request.headers['x-goog-api-key'] === 'string' && request.headers['x-goog-api-key'] !== '')
    return true;
  return url.searchParams.has('key');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function writeJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
