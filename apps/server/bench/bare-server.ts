import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/** One answer the bare server gives back byte for byte (bench/harness.ts records them). */
export interface RecordedAnswer {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

// The reference for this machine: the cheapest possible Fastify route, answering each recorded
// portal answer with the same status, headers and body, so a portal request and its bare twin
// cost the load generator and the socket the same. The difference is what the portal does.
const answersFile = process.env.BENCH_ANSWERS;
const answers: RecordedAnswer[] = answersFile ? JSON.parse(readFileSync(answersFile, 'utf8')) : [];
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
for (const answer of answers) {
  app.route({
    method: answer.method,
    url: answer.path,
    handler: (_request, reply) => {
      reply.code(answer.status).headers(answer.headers).send(answer.body);
    },
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.info('ready');
