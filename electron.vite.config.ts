import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

// One build for everything: the Electron main process (and the Node entry points that share
// its core: the web host, the CLI, the demo agent), the sandboxed preloads, and the renderer
// that both hosts serve.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
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
