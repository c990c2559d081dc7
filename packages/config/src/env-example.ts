import type { z } from 'zod';
import { defaultOf, type SettingsGroup } from './settings';

/** One part of the example file: the settings of one process, or those both read. */
export interface EnvExampleSection {
  title: string;
  group: SettingsGroup;
}

const WIDTH = 100;

/** Splits a description into comment lines of at most WIDTH characters. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 1 && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** A value as a .env line writes it: quoted when it holds spaces, quotes or a #. */
function envValue(value: unknown): string {
  const text = String(value);
  return /[\s#"'<>$`\\]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * The text of .env.example: every variable with its description and default, those production must
 * set marked. Throws when a variable has no description or two sections declare the same name, so
 * the file cannot silently leave one out.
 */
export function renderEnvExample(intro: string, sections: EnvExampleSection[]): string {
  const out = commentLines(intro);
  const seen = new Set<string>();
  for (const { title, group } of sections) {
    out.push('', `## ${title}`);
    for (const [name, field] of Object.entries(group.shape) as [string, z.ZodType][]) {
      if (seen.has(name)) throw new Error(`${name} is declared by two settings groups`);
      seen.add(name);
      const description = field.description?.trim();
      if (!description) throw new Error(`${name} has no description: add .describe('...') to its schema`);
      out.push('', ...commentLines(description));
      const fallback = defaultOf(field);
      if (name in group.productionRequired) {
        out.push(
          fallback === undefined ? '# Required in production.' : '# Required in production: the default below is for development only.',
        );
      }
      out.push(fallback === undefined ? `# ${name}=` : `${name}=${envValue(fallback)}`);
    }
  }
  return `${out.join('\n')}\n`;
}
