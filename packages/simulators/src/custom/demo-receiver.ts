// The demo's "integrated system" behind the custom API channel: `pnpm start` and the e2e stack run it
// so agent replies in the demo tenant are really delivered (signed webhook, sent ticks) instead of
// failing for want of a receiver. Steerable over HTTP (/_simulator/plan) to make deliveries fail.
import { startCustomChannelSimulator } from './simulator';

export const DEMO_WEBHOOK_SECRET_DEFAULT = 'demo-webhook-secret';

// A demo process, not the product: it reads its environment here (DEMO_* variables, the api's port),
// outside the settings of packages/config, which hold what the api and the worker read.
const port = Number(process.env.DEMO_WEBHOOK_PORT ?? 4010);
const secret = process.env.DEMO_WEBHOOK_SECRET ?? DEMO_WEBHOOK_SECRET_DEFAULT;
const simulator = await startCustomChannelSimulator({ secret, port, host: '127.0.0.1' });
console.warn(`demo contact system listening at ${simulator.webhookUrl}`);
// A long-running demo must not keep every delivery in memory.
setInterval(() => {
  if (simulator.requests.length > 10_000) simulator.requests.splice(0, simulator.requests.length - 1_000);
}, 60_000).unref();
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
