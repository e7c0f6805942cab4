import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],

  base: './',
  build: { target: 'es2022', manifest: true, sourcemap: false, reportCompressedSize: false },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/oauth': 'http://127.0.0.1:8080' } },
});
