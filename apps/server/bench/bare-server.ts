import Fastify from 'fastify';

// The reference for this machine: the cheapest possible Fastify route.
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.info('ready');
