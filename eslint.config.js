import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/db/generated/**', 'e2e/artifacts/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['scripts/**', 'e2e/**', 'bench/**', 'apps/web/**'], rules: { 'no-console': 'off' } },
  {
    // The simulators, demo providers and demo seed are development code: production code never imports
    // them, so the api and worker bundles hold none of it (scripts/check-bundles.mjs checks the built ones).
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@atende/simulators', '@atende/simulators/*', '**/simulators/src/**'],
              message: 'Simulators and demo code are for tests, harnesses, benches and scripts only, never production code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      '**/*.test.{ts,tsx}',
      '**/harness.ts',
      '**/testing.ts',
      '**/test-*.ts',
      'packages/simulators/**',
      'scripts/**',
      'e2e/**',
      'bench/**',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
);
