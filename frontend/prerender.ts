import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type Rolldown } from 'vite';
import type * as serverEntry from './src/entry-server';

type ServerEntry = typeof serverEntry;
type PrerenderedPage = ServerEntry['PRERENDERED_PAGES'][number];

/** The module of each page's code, to preload it with the page's HTML (see App.tsx). */
const PAGE_SOURCES: Record<PrerenderedPage, string | null> = {
  '/': null,
  '/play': 'src/features/game/GamePage.tsx',
  '/leaderboard': 'src/features/leaderboard/LeaderboardScreen.tsx',
  '/lolgram': 'src/features/lolgram/LolgramPage.tsx',
};

const ROOT = '<div id="root"></div>';

/** An empty Storage: the build renders a first visit, which has nothing stored. */
class EmptyStorage {
  readonly length = 0;
  getItem = () => null;
  key = () => null;
  setItem = () => undefined;
  removeItem = () => undefined;
  clear = () => undefined;
}

/**
 * Runs `render` as in a first visit's browser before any answer: nothing stored, and every
 * request refused (the markup is the page before its data), then puts the globals back.
 */
async function asFirstVisit<T>(render: () => Promise<T>): Promise<T> {
  const { fetch, localStorage } = globalThis as { fetch: unknown; localStorage?: unknown };
  Object.assign(globalThis, {
    localStorage: new EmptyStorage(),
    fetch: () => Promise.reject(new Error('No requests while rendering at build time')),
  });
  try {
    return await render();
  } finally {
    Object.assign(globalThis, { fetch, localStorage });
  }
}

/** A chunk and every chunk it imports statically: what runs when it is loaded. */
function withImports(
  bundle: Rolldown.OutputBundle,
  chunk: Rolldown.OutputChunk,
): Rolldown.OutputChunk[] {
  const found = new Map<string, Rolldown.OutputChunk>();
  const visit = (file: string) => {
    const next = bundle[file];
    if (next?.type !== 'chunk' || found.has(file)) return;
    found.set(file, next);
    next.imports.forEach(visit);
  };
  visit(chunk.fileName);
  return [...found.values()];
}

/** The tags that start loading what a page needs before the entry script asks for it. */
function headTags(
  bundle: Rolldown.OutputBundle,
  template: string,
  pageChunk: Rolldown.OutputChunk | null,
  firstFetch: string | undefined,
): string {
  const tags: string[] = [];
  if (firstFetch) {
    tags.push(`<link rel="preload" as="fetch" crossorigin="use-credentials" href="${firstFetch}">`);
  }
  for (const chunk of pageChunk ? withImports(bundle, pageChunk) : []) {
    for (const css of chunk.viteMetadata?.importedCss ?? []) {
      if (!template.includes(`/${css}"`)) tags.push(`<link rel="stylesheet" href="/${css}">`);
    }
    if (!template.includes(`/${chunk.fileName}"`)) {
      tags.push(`<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`);
    }
  }
  return tags.join('');
}

/**
 * Renders the shell of each page of PRERENDERED_PAGES at build time into its own HTML file (see
 * `prerenderedFile` in shared/src/routes.ts), so that a phone paints the page's real layout and texts before any script
 * has run, and preloads the page's code (and first request) with it. The app's other pages get
 * the plain shell, `APP_SHELL`. The pages are rendered by a server build of `src/entry-server.tsx`
 * made on the way, with React's `prerender`; the browser hydrates them (main.tsx).
 */
export function prerender(): Plugin {
  let root = '';
  let mode = '';
  let configFile: string | false = false;
  return {
    name: 'tapgram-prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      mode = config.mode;
      configFile = config.configFile ?? false;
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset' || typeof index.source !== 'string') {
          throw new Error('prerender: the build made no index.html');
        }
        const template = index.source;
        if (!template.includes(ROOT)) throw new Error(`prerender: index.html has no ${ROOT}`);

        // A folder of its own for each build: its modules are imported by their plain paths, so
        // that the entry and the page chunks importing it share one instance of each module (a
        // query string on the entry alone made it a second instance, with React contexts and
        // module state of its own), and a later build in the same process still gets fresh ones.
        const cache = path.join(root, 'node_modules/.cache');
        fs.mkdirSync(cache, { recursive: true });
        const outDir = fs.mkdtempSync(path.join(cache, 'prerender-'));
        await build({
          root,
          mode,
          configFile,
          logLevel: 'warn',
          build: {
            ssr: 'src/entry-server.tsx',
            outDir,
            emptyOutDir: true,
            copyPublicDir: false,
            manifest: false,
            rolldownOptions: { output: { entryFileNames: 'entry-server.js' } },
          },
        });
        const entryUrl = pathToFileURL(path.join(outDir, 'entry-server.js')).href;
        const server = (await import(entryUrl)) as ServerEntry;

        const chunks = Object.values(bundle).filter(
          (file): file is Rolldown.OutputChunk => file.type === 'chunk',
        );
        for (const page of server.PRERENDERED_PAGES) {
          const source = PAGE_SOURCES[page];
          const pageChunk = source
            ? chunks.find((chunk) => chunk.facadeModuleId === path.join(root, source))
            : null;
          if (pageChunk === undefined) throw new Error(`prerender: no chunk holds ${source}`);
          const markup = await asFirstVisit(() => server.render(page));
          if (markup === '' || markup.includes('<script')) {
            const script = markup.slice(markup.indexOf('<script'), markup.indexOf('<script') + 400);
            throw new Error(`prerender: ${page} rendered ${markup === '' ? 'nothing' : script}`);
          }
          // React puts the preloads of the images it rendered ahead of the markup: in the head.
          const hints = /^(?:<link [^>]*\/>)*/.exec(markup)![0];
          const head = headTags(bundle, template, pageChunk, server.FIRST_FETCHES[page]) + hints;
          const body = markup.slice(hints.length);
          // Replaced by functions: the markup's text is inserted as it is, `$&` and all.
          const html = template
            .replace('</head>', () => `${head}</head>`)
            .replace(ROOT, () => `<div id="root" data-prerendered="${page}">${body}</div>`);
          if (page === '/') index.source = html;
          else
            this.emitFile({ type: 'asset', fileName: server.prerenderedFile(page), source: html });
        }
        this.emitFile({ type: 'asset', fileName: server.APP_SHELL, source: template });
        fs.rmSync(outDir, { recursive: true, force: true });
      },
    },
  };
}
