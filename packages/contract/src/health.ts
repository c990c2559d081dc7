import { z } from 'zod';
import { route } from './route';

export const health = route({
  method: 'GET',
  path: '/api/health',
  tags: ['health'],
  auth: false,
  summary: 'Liveness and readiness: Postgres and Redis reachable.',
  response: z.object({ status: z.enum(['ok']), postgres: z.boolean(), redis: z.boolean(), version: z.string() }),
});
