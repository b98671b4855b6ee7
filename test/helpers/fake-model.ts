import { createServer } from 'node:http';

// A fake OpenAI-compatible chat endpoint on loopback answering with a script, and the replies a script builds.

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface Seen {
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/** A chat completions endpoint on loopback answering with `script` (a script that throws answers 400); every request it received, in order. */
export async function fakeEndpoint(t: Teardown, script: (body: any, index: number) => Answer): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ headers: request.headers, body });
      let answer: Answer;
      try {
        answer = request.url === '/v1/chat/completions' ? script(body, seen.length - 1) : { status: 404, body: { error: 'no such route' } };
      } catch (error) {
        // A script that breaks answers a 400, which the eval does not retry: the run fails with the script's error.
        answer = { status: 400, body: { error: `fake model script: ${(error as Error).message}` } };
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return { baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`, seen };
}

export const reply = (message: object): Answer => ({
  status: 200,
  body: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message } }] },
});
export const say = (content: string) => reply({ content });
export const calls = (step: number, ...list: [string, object | string][]) =>
  reply({
    content: null,
    tool_calls: list.map(([name, args], i) => ({
      id: `call_${step}_${i}`,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    })),
  });
