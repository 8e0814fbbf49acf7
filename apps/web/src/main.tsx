import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initTheme } from './shared/ui/theme';
import './app/global.css';

initTheme();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(<App />);
