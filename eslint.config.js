import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'build/',
      'dist/',
      'dist-offline/',
      'dist-scorm/',
      'node_modules/',
      'web/src/engine/generated/',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['scripts/**', 'tests/**', 'bench/**', 'vite.config.js', 'web/src/engine/node.js'],
    languageOptions: { globals: { ...globals.node } },
  },
];
