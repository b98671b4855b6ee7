import { portOption } from '../shared/port.js';
import { buildCrm } from './app.js';

// npx tsx examples/upstream-crm/main.ts [--port 9090]      (PORT works too; CRM_TOKEN asks every call for that bearer token)

const token = process.env['CRM_TOKEN'];
const app = buildCrm(token ? { token } : {});
const address = await app.listen({ port: portOption(9090), host: '127.0.0.1' });
console.log(`crm listening at ${address}${token ? ' (bearer token required)' : ''}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
