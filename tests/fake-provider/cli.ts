/**
 * Runs the fake provider as a standalone process for manual testing:
 *   node dist/tests/fake-provider/cli.js [--port 8787] [--chunk-delay MS]
 * Queue scripted answers with: curl -X POST localhost:8787/__fake/script -d '{"type":"error","status":429}'
 */
import { FakeProviderServer } from './server.js';

const portIndex = process.argv.indexOf('--port');
const port = portIndex >= 0 ? Number(process.argv[portIndex + 1]) : 8787;
const delayIndex = process.argv.indexOf('--chunk-delay');
const chunkDelayMs = delayIndex >= 0 ? Number(process.argv[delayIndex + 1]) : 0;
const server = new FakeProviderServer({ port, chunkDelayMs });
const url = await server.start();
process.stdout.write(`fake provider listening on ${url}\n`);
process.stdout.write(`  OpenAI:    OPENAI_BASE_URL=${url}/v1\n`);
process.stdout.write(`  Anthropic: ANTHROPIC_BASE_URL=${url}\n`);
process.stdout.write(`  Gemini:    GOOGLE_GEMINI_BASE_URL=${url}\n`);
process.stdout.write(`  Bedrock:   AWS_ENDPOINT_URL_BEDROCK_RUNTIME=${url} (or baseUrls.bedrock)\n`);
const shutdown = (): void => {
  void server.stop().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
