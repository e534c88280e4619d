import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { resolve } from 'node:path';
import { contentSecurityPolicy } from './src/main/csp';

/**
 * Writes the desktop's CSP (src/main/csp.ts) into index.html; the dev server needs a looser one.
 * Web mode's server replaces it with web mode's policy when it serves the page.
 */
function cspMetaTag(): Plugin {
  let devServerOrigin: string | undefined;
  return {
    name: 'portaldesk-csp',
    configureServer(server) {
      const { port = 5173 } = server.config.server;
      devServerOrigin = `http://localhost:${port}`;
    },
    transformIndexHtml(html) {
      const csp = contentSecurityPolicy({
        mode: 'desktop',
        ...(devServerOrigin ? { devServerOrigin } : {}),
      });
      return html.replace('%PORTALDESK_CSP%', csp);
    },
  };
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The desktop entry and web mode's entry share the engine; the emulator's command runs
        // from the same build.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          web: resolve(__dirname, 'src/main/web.ts'),
          emulator: resolve(__dirname, 'packages/emulator/src/cli.ts'),
          router: resolve(__dirname, 'src/main/routerCli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react(), cspMetaTag()],
  },
});
