import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],

  base: './',
  build: {
    target: 'es2022',
    manifest: true,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // Everything the first page imports statically goes in one chunk (App and its dependencies,
        // recursively). Left alone, the bundler splits what the first page shares with lazy screens
        // into many tiny chunks, and each costs the sign-in page its own request and overhead.
        codeSplitting: { groups: [{ name: 'boot', test: /\/src\/app\/App\.tsx$/ }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/oauth': 'http://127.0.0.1:8080' } },
});
