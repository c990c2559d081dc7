import { describe, expect, it } from 'vitest';
import { pt } from '../../i18n/pt';
import { ENTRY_POINT_KIND } from './entryPoint';

describe('entry point kinds', () => {
  it('names each kind of entry point as itself, in both languages', () => {
    expect(ENTRY_POINT_KIND).toEqual({ sector: 'Sector', menu: 'Menu', bot: 'Bot' });
    expect(Object.values(ENTRY_POINT_KIND).map((k) => pt[k])).toEqual(['Setor', 'Menu', 'Bot']);
  });
});
