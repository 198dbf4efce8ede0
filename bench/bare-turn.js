/**
 * The baseline a `cody chat` turn is compared with: a bare script that imports one official SDK and
 * makes the same streaming call against the fake provider. Usage: node bench/bare-turn.js <api> <baseUrl>
 */
const [api, baseUrl] = process.argv.slice(2);
const prompt = 'hello';

if (api === 'openai-chat') {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: 'bench-key', baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: 'gpt-4.1-mini',
    messages: [{ role: 'user', content: prompt }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
} else if (api === 'openai-responses') {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: 'bench-key', baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  const stream = await client.responses.create({
    model: 'gpt-4.1-mini',
    input: prompt,
    stream: true,
    store: false,
  });
  for await (const event of stream)
    if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);
} else if (api === 'anthropic-messages') {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey: 'bench-key', baseURL: baseUrl, maxRetries: 0 });
  const stream = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    messages: [{ role: 'user', content: prompt }],
    stream: true,
  });
  for await (const event of stream) {
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
      process.stdout.write(event.delta.text);
  }
} else if (api === 'gemini') {
  const { GoogleGenAI } = await import('@google/genai');
  const client = new GoogleGenAI({ apiKey: 'bench-key', httpOptions: { baseUrl } });
  const stream = await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: prompt });
  for await (const chunk of stream) process.stdout.write(chunk.text ?? '');
} else {
  throw new Error(`unknown api ${api}`);
}
process.stdout.write('\n');
