import { StrictMode, Suspense, useState } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PageLoader } from '@/shared/ui/page-loader';
import { Toaster } from '@/shared/ui/toaster';
import { createRouter } from './router';
import { createStore } from './store';

export function App() {
  const [store] = useState(createStore);
  const [router] = useState(createRouter);
  return (
    <StrictMode>
      <Provider store={store}>
        <Suspense fallback={<PageLoader />}>
          <RouterProvider router={router} />
        </Suspense>
        <Toaster />
      </Provider>
    </StrictMode>
  );
}
