import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { firstPageLoaded } from './app/router';
import { initTheme } from './shared/ui/theme';
import './app/global.css';

initTheme();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
void firstPageLoaded(location.pathname).then(() => root.render(<App />));
