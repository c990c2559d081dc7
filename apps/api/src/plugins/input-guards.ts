import { AppError } from '@atende/contract';
import { isStorableText } from '@atende/core';
import type { FastifyInstance } from 'fastify';

// Guards on raw input that the contract's schemas do not express, each of which otherwise ends
// as a 500 deep inside Postgres or Prisma instead of a 400 at the door.

/** Deeper than any body of the contract; free-form JSON (integrations) gets this much room. */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of objects and arrays in a JSON text, counted without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) max = Math.max(max, ++depth);
    else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/**
 * Fastify's JSON parser (prototype poisoning refused), behind a nesting limit: a body nested
 * thousands deep parses, but blows the stack later (Prisma serialising a JSON column) as a 500.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
      return done(
        new AppError('json_too_deep', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`, undefined, {
          max_depth: MAX_JSON_DEPTH,
        }),
        undefined,
      );
    }
    return parse(request, body as string, done);
  });
}

/** The first string (or object key) of a parsed body or query that Postgres could not store. */
function findUnstorable(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : value;
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return key;
    const found = findUnstorable(item, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Refuses bodies and query strings carrying NUL characters or broken Unicode, before validation. */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (findUnstorable(request.body) !== undefined || findUnstorable(request.query) !== undefined) {
      throw new AppError('text_invalid_characters', 'Text may not contain NUL characters or invalid Unicode');
    }
  });
}
