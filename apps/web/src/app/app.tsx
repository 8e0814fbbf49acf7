import { StrictMode, Suspense, useState } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { PageLoader } from '@/shared/ui/page-loader';
import { Toaster } from '@/shared/ui/toaster';
import { AppRoutes } from './router';
import { createStore } from './store';

export function App() {
  const [store] = useState(createStore);
  return (
    <StrictMode>
      <Provider store={store}>
        <Suspense fallback={<PageLoader />}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Suspense>
        <Toaster />
      </Provider>
    </StrictMode>
  );
}
