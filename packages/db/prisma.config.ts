import { defineConfig } from 'prisma/config';

// Prisma 7 reads the connection from here, not from schema.prisma.
export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/atende' },
});
