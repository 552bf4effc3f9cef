import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin, Rollup } from 'vite';

/**
 * Names in the app page, as `<meta name="airlock-prefetch" content="…">`, the files (scripts and
 * styles) of the parts that `sources` load, less what the page loads first: the page fetches
 * them ahead without running them (renderer/src/lazy-parts.tsx).
 */
function prefetchList(sources: string[]): Plugin {
  const wanted = new Set(sources.map((source) => resolve(source)));
  return {
    name: 'airlock-prefetch-list',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !html.includes('id="root"')) {
          return html;
        }
        const chunks = Object.values(bundle).filter(
          (output): output is Rollup.OutputChunk => output.type === 'chunk',
        );
        /** `chunk`'s files and those of the chunks it imports, into `files`. */
        const gather = (chunk: Rollup.OutputChunk, files: Set<string>) => {
          if (files.has(chunk.fileName)) {
            return;
          }
          files.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) {
            files.add(css);
          }
          for (const name of chunk.imports) {
            const imported = bundle[name];
            if (imported?.type === 'chunk') {
              gather(imported, files);
            }
          }
        };
        const first = new Set<string>();
        for (const chunk of chunks.filter((each) => each.isEntry)) {
          gather(chunk, first);
        }
        const parts = chunks.filter((chunk) => wanted.has(chunk.facadeModuleId ?? ''));
        if (parts.length !== wanted.size) {
          throw new Error(`prefetch: not every one of ${sources.join(', ')} is a chunk`);
        }
        const files = new Set<string>();
        for (const part of parts) {
          gather(part, files);
        }
        for (const file of first) {
          files.delete(file);
        }
        const content = [...files].map((file) => `./${file}`).join(' ');
        return [{ tag: 'meta', attrs: { name: 'airlock-prefetch', content }, injectTo: 'head' }];
      },
    },
  };
}

// One build for everything: the Electron main process (and the Node entry points that share
// its core: the web host, the CLI, the demo agent), the sandboxed preloads, and the renderer
// that both hosts serve.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The ES modules the core needs at start are bundled: Node reads a few files where it
      // would resolve and read hundreds of them, and the web host starts in about half the time.
      // What stays external is CommonJS loaded on first use (on-first-use.ts), or native.
      externalizeDeps: {
        exclude: [
          '@agentclientprotocol/sdk',
          'ajv',
          'ajv-formats',
          'jsonc-parser',
          're2js',
          'tldts',
          'ws',
          'zod',
        ],
      },
      rollupOptions: {
        input: {
          index: resolve('main/electron/index.ts'),
          web: resolve('main/web/index.ts'),
          cli: resolve('main/cli/airlock.ts'),
          'demo-agent': resolve('main/demo-agent/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads cannot load modules: bundle everything, as CommonJS, each preload
      // standalone (no chunks shared between them, which a sandboxed preload could not load).
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        // The app window's preload, and the isolated URL window's address strip's.
        input: { index: resolve('preload/index.ts'), strip: resolve('preload/strip.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    // The cards an agent may ask with: fetched ahead, run on first use.
    plugins: [
      prefetchList([
        'renderer/src/components/elicitation-card.tsx',
        'renderer/src/components/url-card.tsx',
      ]),
    ],
    build: {
      outDir: resolve('out/renderer'),
      // For profiling: AIRLOCK_SOURCEMAP=1 maps the bundle back to its modules, and
      // AIRLOCK_MINIFY=0 keeps function names (`AIRLOCK_SOURCEMAP=1 AIRLOCK_MINIFY=0 npm run build`).
      sourcemap: process.env.AIRLOCK_SOURCEMAP === '1',
      minify: process.env.AIRLOCK_MINIFY !== '0',
      // The app, and the isolated URL window's address strip.
      rollupOptions: {
        input: { index: resolve('renderer/index.html'), strip: resolve('renderer/strip.html') },
      },
    },
  },
});
