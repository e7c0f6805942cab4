import '@mantine/core/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { setupI18n } from './lib/i18n.ts';

await setupI18n();
const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
