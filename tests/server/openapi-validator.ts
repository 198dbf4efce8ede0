/**
 * Checks answers and events against src/server/openapi.json: the operation the request hit (by method
 * and path template), the status it answered (it must be declared), its JSON body against that status's
 * schema, a 405's `Allow` header, and each SSE event's JSON against the stream's schema (`Event` or
 * `Signal`) with its `event:` line naming its type. The serve harness's client runs every answer and
 * event through this, so every end-to-end serve test is also a schema test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, Json>;
}
interface Document {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, Json> };
}

const documentPath = join(import.meta.dirname, '../../src/server/openapi.json');
const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Document;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = addFormatsModule as unknown as (instance: Ajv2020) => void;
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

const compiled = new Map<string, ValidateFunction>();
function validatorFor(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The documented path template a request path matches (`/conversations/{id}`), if any. */
export function templateOf(pathname: string): string | undefined {
  const segments = pathname.split('/');
  return Object.keys(document.paths).find((template) => {
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, index) => /^\{\w+\}$/.test(part) || part === segments[index])
    );
  });
}

function check(validate: ValidateFunction, value: unknown, what: string): void {
  if (!validate(value)) {
    throw new Error(
      `${what} does not match openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 2000)}`,
    );
  }
}

/** Throws when the answer is not what openapi.json declares for this operation and status. */
export function validateAnswer(
  method: string,
  path: string,
  status: number,
  headers: Headers,
  text: string,
): void {
  const pathname = new URL(path, 'http://localhost').pathname;
  const template = templateOf(pathname);
  const what = `${method} ${pathname} → ${status}`;
  if (template === undefined) {
    // No such path: a 404 with the error body.
    if (status !== 404) throw new Error(`${what}: an undocumented path answered`);
    check(validatorFor('#/components/schemas/Error'), JSON.parse(text), what);
    return;
  }
  const item = document.paths[template] ?? {};
  const operation = item[method.toLowerCase()] as Operation | undefined;
  if (!operation) {
    if (status !== 405) throw new Error(`${what}: an undocumented method answered`);
    const allowed = Object.keys(item)
      .filter((key) => ['get', 'post', 'put', 'delete'].includes(key))
      .map((key) => key.toUpperCase());
    const allow = (headers.get('allow') ?? '').split(/,\s*/).sort();
    if (allow.join(',') !== allowed.sort().join(',')) {
      throw new Error(
        `${what}: Allow '${headers.get('allow')}' is not the path's methods ${allowed.join(', ')}`,
      );
    }
    check(validatorFor('#/components/schemas/Error'), JSON.parse(text), what);
    return;
  }
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${what}: status not declared in openapi.json`);
  const base = `#/paths/${escape(template)}/${method.toLowerCase()}/responses/${status}`;
  const resolved =
    typeof response.$ref === 'string'
      ? (document.components.responses[response.$ref.split('/').at(-1) ?? ''] ?? {})
      : response;
  const pointer = typeof response.$ref === 'string' ? response.$ref : base;
  const content = resolved.content as Record<string, unknown> | undefined;
  if (content?.['application/json'] !== undefined) {
    check(validatorFor(`${pointer}/content/application~1json/schema`), JSON.parse(text), what);
  }
}

/** Throws when an SSE event of the stream at `path` is not declared (its JSON, and its `event:` name). */
export function validateEvent(path: string, event: string | undefined, data: string): void {
  const pathname = new URL(path, 'http://localhost').pathname;
  const schema = pathname === '/events' ? 'Signal' : 'Event';
  const value = JSON.parse(data) as Json;
  check(validatorFor(`#/components/schemas/${schema}`), value, `an event of ${pathname}`);
  if (event !== value.type) {
    throw new Error(`an event of ${pathname} has 'event: ${event}' but type '${String(value.type)}'`);
  }
}
