import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../src/server/config.js';

const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('README', () => {
  it.each(ENV_VARIABLES.map((v) => [v]))('documents %s in the configuration table', (variable) => {
    expect(readme).toMatch(new RegExp(`^\\| \`${variable}\` \\|`, 'm'));
  });

  it('has a Quick start with exactly two commands', () => {
    const quickStart = readme.split('## Quick start')[1].split('\n## ')[0];
    const commands = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim());
    expect(commands).toEqual(['npm install && npm start', 'npm test']);
  });
});
