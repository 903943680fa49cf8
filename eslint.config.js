import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const BACKEND_MODULES = ['accounts', 'images', 'live'];
const BACKEND_FEATURES = ['game', 'lolgram'];
const FRONTEND_FEATURES = [
  'admin',
  'auth',
  'game',
  'landing',
  'leaderboard',
  'lolgram',
  'not-found',
  'story',
  'wallet',
];

const ENTRY_ONLY = 'import it through its index.ts, its public entry';

const LOLGRAM = 'frontend/src/features/lolgram';
/**
 * LOLGram's sub-features, each with the others it may use (through their index.ts). Below them
 * all lie LOLGram's floor, `ui/` (its small components) and `lib/` (query keys and helpers), which
 * import no sub-feature; above them the shell (the pages, the app with its header and tab bar, the
 * tabs and the post screen) composes any of them and is imported by none.
 */
const LOLGRAM_SUBFEATURES = {
  account: [],
  'create-post': [],
  notifications: [],
  relations: [],
  reports: [],
  posts: ['reports'],
  'post-lists': ['posts'],
  comments: ['relations', 'reports'],
  profile: ['post-lists', 'relations'],
};
const LOLGRAM_FLOOR = ['ui', 'lib'];
const LOLGRAM_SHELL = [`${LOLGRAM}/*.{ts,tsx}`, `${LOLGRAM}/tabs/**`, `${LOLGRAM}/post/**`];

/** `target` may reach each of `others` only through the other's index.ts. */
const throughIndex = (target, others) =>
  others.map((other) => ({
    target,
    from: other,
    except: ['./index.ts'],
    message: `${other} is another module: ${ENTRY_ONLY}.`,
  }));

const lolgramPath = (name) => `${LOLGRAM}/${name}`;

/** Inside LOLGram: the floor, the sub-features' allowed dependencies, and the shell on top. */
const lolgramBoundaries = [
  {
    target: LOLGRAM_FLOOR.map(lolgramPath),
    from: Object.keys(LOLGRAM_SUBFEATURES).map(lolgramPath),
    message: "LOLGram's ui/ and lib/ are its floor: they import no sub-feature.",
  },
  {
    target: [...LOLGRAM_FLOOR, ...Object.keys(LOLGRAM_SUBFEATURES)].map(lolgramPath),
    from: LOLGRAM_SHELL,
    message:
      "LOLGram's shell (its pages, app, tabs and post screen) composes the sub-features: none imports it.",
  },
  ...Object.entries(LOLGRAM_SUBFEATURES).flatMap(([name, uses]) => {
    const others = Object.keys(LOLGRAM_SUBFEATURES).filter((other) => other !== name);
    return [
      ...others
        .filter((other) => !uses.includes(other))
        .map((other) => ({
          target: lolgramPath(name),
          from: lolgramPath(other),
          message: `LOLGram's ${name} may not use ${other}: see LOLGRAM_SUBFEATURES in eslint.config.js for what it may use.`,
        })),
      ...throughIndex(lolgramPath(name), uses.map(lolgramPath)),
    ];
  }),
];

/**
 * The layout, enforced: core is the floor and imports no module or feature; the modules several
 * features share (accounts, images, live) import no feature; a module or feature reaches another
 * only through its index.ts. The same between the frontend's features, and its shared layers
 * (components, lib, hooks) import no feature. Inside LOLGram, its sub-features as above.
 */
const boundaries = [
  {
    target: 'backend/src/core',
    from: [
      ...[...BACKEND_MODULES, ...BACKEND_FEATURES].map((name) => `backend/src/${name}`),
      'backend/src/features.ts',
      'backend/src/main.ts',
    ],
    message: 'core is the floor: it imports no module or feature.',
  },
  ...BACKEND_MODULES.map((name) => ({
    target: `backend/src/${name}`,
    from: BACKEND_FEATURES.map((feature) => `backend/src/${feature}`),
    message: 'a shared module imports no feature.',
  })),
  ...[...BACKEND_MODULES, ...BACKEND_FEATURES].flatMap((name) =>
    throughIndex(
      `backend/src/${name}`,
      [...BACKEND_MODULES, ...BACKEND_FEATURES]
        .filter((other) => other !== name)
        .map((other) => `backend/src/${other}`),
    ),
  ),
  {
    target: ['frontend/src/components', 'frontend/src/lib', 'frontend/src/hooks'],
    from: 'frontend/src/features',
    message: 'the shared layers import no feature.',
  },
  ...FRONTEND_FEATURES.flatMap((name) =>
    throughIndex(
      `frontend/src/features/${name}`,
      FRONTEND_FEATURES.filter((other) => other !== name).map(
        (other) => `frontend/src/features/${other}`,
      ),
    ),
  ),
  ...lolgramBoundaries,
  {
    target: 'shared',
    from: ['backend', 'frontend'],
    message: 'shared is the contract: it imports neither side.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['backend/src/**/*.ts', 'frontend/src/**/*.{ts,tsx}', 'shared/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaries }] },
  },
  {
    // Who may do what is decided in one place (backend/src/accounts/access.ts): a role compared
    // anywhere else is a rule written twice.
    files: ['backend/src/**/*.ts'],
    ignores: ['backend/src/accounts/access.ts', 'backend/src/accounts/admin-cli.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator=/^[!=]==?$/][right.value='admin']",
          message: 'Ask the access policy (accounts/access.ts: can, requireAccess) instead.',
        },
        {
          selector: "BinaryExpression[operator=/^[!=]==?$/][left.value='admin']",
          message: 'Ask the access policy (accounts/access.ts: can, requireAccess) instead.',
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: [
      '**/test/**',
      'backend/test-support/**',
      'e2e/**',
      'bench/**',
      '**/*.config.ts',
      'backend/src/**/*-cli.ts',
      'scripts/**',
      'frontend/scripts/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
