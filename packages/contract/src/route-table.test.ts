import { describe, expect, it } from 'vitest';
import { routes } from './index';
import { routeTable } from './route-table';

describe('routeTable', () => {
  it('holds every route of `routes`, by the same name, at its method, path and body encoding', () => {
    const fromRoutes = Object.fromEntries(
      Object.entries(routes).map(([name, def]) => [
        name,
        { method: def.method, path: def.path, ...('bodyEncoding' in def && def.bodyEncoding ? { bodyEncoding: def.bodyEncoding } : {}) },
      ]),
    );
    expect(routeTable).toEqual(fromRoutes);
    expect(Object.keys(routeTable)).toHaveLength(Object.keys(routes).length);
  });
});
