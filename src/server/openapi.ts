/** The API's OpenAPI 3.1 document, kept in the repository beside the routes (a test checks they agree). */
import document from './openapi.json' with { type: 'json' };

export const openApiDocument: unknown = document;
