/**
 * An ACP client for the `cody acp` tests: the built `bin/cody.js acp` spawned with the harness's
 * environment, driven by the official SDK's client side, every message in both directions recorded and
 * checked against the JSON schema shipped in the SDK package (the method's params, its result or error).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  client,
  ndJsonStream,
  type AnyMessage,
  type ClientApp,
  type ClientConnection,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { CODY_BIN } from './harness.js';

const require = createRequire(import.meta.url);
/** The schema the SDK ships (its package exports it). */
const SCHEMA_PATH = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');

interface SchemaDef {
  'x-method'?: string;
  'x-side'?: string;
}

/** Validates ACP messages by method: requests' and notifications' params, responses' results and errors. */
export class AcpSchema {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly defs: Record<string, SchemaDef>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $defs: Record<string, SchemaDef> };
    this.defs = schema.$defs;
    // The schema's numeric formats (Rust's types), checked as the ranges they are.
    const integer = (min: number, max: number) => ({
      type: 'number' as const,
      validate: (value: number) => Number.isInteger(value) && value >= min && value <= max,
    });
    this.ajv.addFormat('int32', integer(-(2 ** 31), 2 ** 31 - 1));
    this.ajv.addFormat('uint16', integer(0, 2 ** 16 - 1));
    this.ajv.addFormat('uint32', integer(0, 2 ** 32 - 1));
    this.ajv.addFormat('int64', integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
    this.ajv.addFormat('uint64', integer(0, Number.MAX_SAFE_INTEGER));
    this.ajv.addFormat('double', { type: 'number', validate: (value: number) => Number.isFinite(value) });
    this.ajv.addFormat('uri', (value: string) => URL.canParse(value));
    this.ajv.addSchema(schema, 'acp');
  }

  /** The `$defs` name of a method's params (`Request`/`Notification`) or result (`Response`). */
  defName(method: string, suffix: 'Request' | 'Notification' | 'Response'): string {
    const names = Object.keys(this.defs).filter(
      (name) => this.defs[name]?.['x-method'] === method && name.endsWith(suffix),
    );
    if (names.length !== 1 || names[0] === undefined)
      throw new Error(`no single ${suffix} def for ${method}`);
    return names[0];
  }

  /** Problems of `value` against `$defs/name` (empty when valid). */
  check(name: string, value: unknown): string[] {
    let validate = this.compiled.get(name);
    if (!validate) {
      validate = this.ajv.getSchema(`acp#/$defs/${name}`);
      if (!validate) throw new Error(`no schema for ${name}`);
      this.compiled.set(name, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  }
}

type Direction = 'to-agent' | 'to-client';

/** Every message both ways, each checked; `problems` lists what failed the schema. */
export class MessageLog {
  readonly messages: Array<{ direction: Direction; message: AnyMessage; at: number }> = [];
  readonly problems: string[] = [];
  private readonly pending = new Map<string, string>();
  private readonly schema: AcpSchema;

  constructor(schema: AcpSchema) {
    this.schema = schema;
  }

  record(direction: Direction, message: AnyMessage): void {
    this.messages.push({ direction, message, at: performance.now() });
    const raw = message as {
      id?: string | number | null;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: unknown;
    };
    const key = (id: unknown, side: Direction): string => `${side}:${String(id)}`;
    let name: string;
    let value: unknown;
    if (raw.method !== undefined) {
      if (raw.method === '$/cancel_request')
        return this.report(direction, message, 'CancelRequestNotification', raw.params);
      const isRequest = raw.id !== undefined;
      if (isRequest) this.pending.set(key(raw.id, direction), raw.method);
      name = this.schema.defName(raw.method, isRequest ? 'Request' : 'Notification');
      value = raw.params;
    } else {
      // A response travels the other way from its request.
      const method = this.pending.get(key(raw.id, direction === 'to-agent' ? 'to-client' : 'to-agent'));
      if (method === undefined)
        return void this.problems.push(`response to an unknown request: ${JSON.stringify(message)}`);
      name = raw.error !== undefined ? 'Error' : this.schema.defName(method, 'Response');
      value = raw.error ?? raw.result;
    }
    this.report(direction, message, name, value);
  }

  private report(direction: Direction, message: AnyMessage, name: string, value: unknown): void {
    const errors = this.schema.check(name, value);
    if (errors.length > 0)
      this.problems.push(`${direction} ${name}: ${errors.join('; ')}: ${JSON.stringify(message)}`);
  }

  /** The session/update notifications for a session, in order. */
  updates(sessionId: string): SessionNotification['update'][] {
    return this.messages.flatMap(({ message }) => {
      const raw = message as { method?: string; params?: SessionNotification };
      return raw.method === 'session/update' && raw.params?.sessionId === sessionId
        ? [raw.params.update]
        : [];
    });
  }
}

export interface AcpAgent {
  child: ChildProcess;
  connection: ClientConnection;
  log: MessageLog;
  stderr: () => string;
  /** How the client answers permission requests (the test sets it). */
  onPermission: (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ) => Promise<RequestPermissionResponse>;
  /** Listeners told of each session/update as it arrives. */
  onUpdate: Array<(update: SessionNotification) => void>;
  close(): Promise<void>;
}

/** Spawns `cody acp` and connects the SDK's client to it. */
export function startAcpAgent(options: {
  env: Record<string, string>;
  cwd: string;
  schema: AcpSchema;
  capabilities?: { fs?: { readTextFile?: boolean; writeTextFile?: boolean } };
  app?: (app: ClientApp) => ClientApp;
}): AcpAgent {
  const child = spawn(process.execPath, [CODY_BIN, 'acp'], {
    cwd: options.cwd,
    env: options.env,
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const log = new MessageLog(options.schema);
  const base = ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
  );
  const tap = (direction: Direction): TransformStream<AnyMessage, AnyMessage> =>
    new TransformStream({
      transform(message, controller) {
        log.record(direction, message);
        controller.enqueue(message);
      },
    });
  const outgoing = tap('to-agent');
  void outgoing.readable.pipeTo(base.writable).catch(() => undefined);
  const stream = { readable: base.readable.pipeThrough(tap('to-client')), writable: outgoing.writable };
  const handle: AcpAgent = {
    child,
    log,
    stderr: () => stderr,
    onPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }),
    onUpdate: [],
    connection: undefined as unknown as ClientConnection,
    close: async () => {
      child.stdin?.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => (clearTimeout(timer), resolve()));
      });
    },
  };
  const app = client({ name: 'cody-acp-test' })
    .onRequest('session/request_permission', ({ params, signal }) => handle.onPermission(params, signal))
    .onNotification('session/update', ({ params }) => {
      for (const listener of handle.onUpdate) listener(params);
    });
  handle.connection = (options.app ? options.app(app) : app).connect(stream);
  return handle;
}
